import { httpErrorToHuman } from '../../../api/errors.ts';
import { setServerAllocationNotes, type Allocation } from '../../../api/network.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useAutosave, type AutosaveState } from '../../../lib/useAutosave.ts';
import { useServerStore } from '../store.ts';
import { NETWORK_FLASH } from './flash.ts';

/** Spec 001 §9: allocation notes are sent 750 ms after the last change. */
export const NOTES_SAVE_DELAY_MS = 750;

export type NotesState = AutosaveState;

/**
 * The notes being typed for one allocation. Sent 750 ms after typing stops and only when
 * `editable`; an edit still waiting when the row goes away is sent at once rather than lost.
 */
export function useAllocationNotes(
  allocation: Allocation,
  editable: boolean,
  onSaved: (saved: Allocation) => void,
) {
  const serverId = useServerStore((s) => s.server!.id);
  return useAutosave(allocation.notes ?? '', {
    delayMs: NOTES_SAVE_DELAY_MS,
    enabled: editable,
    onSaving: () => useGlobalStore.getState().clearFlashes(NETWORK_FLASH),
    save: async (next, ticket) => {
      const saved = await setServerAllocationNotes(serverId, allocation.id, next);
      if (ticket.isLatest()) onSaved(saved);
    },
    onError: (error) => flashError(NETWORK_FLASH, httpErrorToHuman(error)),
  });
}
