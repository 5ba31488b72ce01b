import { useEffect, useRef, useState } from 'react';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { setServerAllocationNotes, type Allocation } from '../../../api/network.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useServerStore } from '../store.ts';
import { NETWORK_FLASH } from './flash.ts';

/** Spec 001 §9: allocation notes are sent 750 ms after the last change. */
export const NOTES_SAVE_DELAY_MS = 750;

/** idle → waiting (debounce running) → saving (request out) → saved or failed */
export type NotesState = 'idle' | 'waiting' | 'saving' | 'saved' | 'failed';

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
  const [value, setValue] = useState(allocation.notes ?? '');
  const [state, setState] = useState<NotesState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<string | null>(null);
  // Answers may come back out of order: only the newest request sets the state.
  const sent = useRef(0);

  const send = async (next: string) => {
    const seq = ++sent.current;
    setState('saving');
    useGlobalStore.getState().clearFlashes(NETWORK_FLASH);
    try {
      const saved = await setServerAllocationNotes(serverId, allocation.id, next);
      if (seq !== sent.current) return;
      onSaved(saved);
      setState('saved');
    } catch (error) {
      if (seq !== sent.current) return;
      setState('failed');
      flashError(NETWORK_FLASH, httpErrorToHuman(error));
    }
  };
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });

  const change = (next: string) => {
    if (!editable) return;
    setValue(next);
    setState('waiting');
    clearTimeout(timer.current);
    waiting.current = next;
    timer.current = setTimeout(() => {
      waiting.current = null;
      void sendRef.current(next);
    }, NOTES_SAVE_DELAY_MS);
  };

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (waiting.current !== null) void sendRef.current(waiting.current);
      waiting.current = null;
    },
    [],
  );

  return { value, state, change };
}
