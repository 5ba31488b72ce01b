import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { httpErrorToHuman } from '../../../api/errors.ts';
import {
  updateServerStartupVariable,
  type ServerEggVariable,
  type StartupData,
} from '../../../api/startup.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useAutosave, type AutosaveState } from '../../../lib/useAutosave.ts';
import { useServerStore } from '../store.ts';
import { variableFlashKey } from './flash.ts';
import { startupQueryKey, withUpdatedVariable } from './useServerStartup.ts';

/** Spec 001 §9: a variable is sent 500 ms after the last change. */
export const VARIABLE_SAVE_DELAY_MS = 500;

export type SaveState = AutosaveState;

/**
 * The value being edited in one variable's field. Changes are sent 500 ms after typing stops, and
 * only when `editable`; the panel's answer replaces the variable and the startup command in the
 * shared cache. A refusal is shown in the variable's own flash area and changes nothing else. An
 * edit still waiting when the page is left is sent at once rather than lost.
 */
export function useVariableEditor(variable: ServerEggVariable, editable: boolean) {
  const serverId = useServerStore((s) => s.server!.id);
  const patchServer = useServerStore((s) => s.patchServer);
  const queryClient = useQueryClient();
  const flashKey = variableFlashKey(variable.envVariable);
  // An older success never overwrites a newer one in the cache.
  const applied = useRef(0);

  useEffect(() => {
    // An error left from an earlier visit no longer matches the value shown.
    useGlobalStore.getState().clearFlashes(flashKey);
  }, [flashKey]);

  return useAutosave(variable.serverValue ?? '', {
    delayMs: VARIABLE_SAVE_DELAY_MS,
    enabled: editable,
    onSaving: () => useGlobalStore.getState().clearFlashes(flashKey),
    save: async (next, ticket) => {
      const answer = await updateServerStartupVariable(serverId, variable.envVariable, next);
      if (ticket.seq <= applied.current) return;
      applied.current = ticket.seq;
      queryClient.setQueryData<StartupData>(
        startupQueryKey(serverId),
        (data) => data && withUpdatedVariable(data, answer),
      );
      patchServer({ invocation: answer.invocation });
    },
    onError: (error) => flashError(flashKey, httpErrorToHuman(error)),
  });
}
