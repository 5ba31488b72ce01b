import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { httpErrorToHuman } from '../../../api/errors.ts';
import {
  updateServerStartupVariable,
  type ServerEggVariable,
  type StartupData,
} from '../../../api/startup.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useServerStore } from '../store.ts';
import { variableFlashKey } from './flash.ts';
import { startupQueryKey, withUpdatedVariable } from './useServerStartup.ts';

/** Spec 001 §9: a variable is sent 500 ms after the last change. */
export const VARIABLE_SAVE_DELAY_MS = 500;

/** idle → waiting (debounce running) → saving (request out) → saved or failed */
export type SaveState = 'idle' | 'waiting' | 'saving' | 'saved' | 'failed';

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
  const [value, setValue] = useState(variable.serverValue ?? '');
  const [state, setState] = useState<SaveState>('idle');
  const flashKey = variableFlashKey(variable.envVariable);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<string | null>(null);
  // Answers may come back out of order: only the newest request sets the state, and an older
  // success never overwrites a newer one in the cache.
  const sent = useRef(0);
  const applied = useRef(0);

  const send = async (next: string) => {
    const seq = ++sent.current;
    setState('saving');
    useGlobalStore.getState().clearFlashes(flashKey);
    try {
      const answer = await updateServerStartupVariable(serverId, variable.envVariable, next);
      if (seq > applied.current) {
        applied.current = seq;
        queryClient.setQueryData<StartupData>(
          startupQueryKey(serverId),
          (data) => data && withUpdatedVariable(data, answer),
        );
        patchServer({ invocation: answer.invocation });
      }
      if (seq === sent.current) setState('saved');
    } catch (error) {
      if (seq !== sent.current) return;
      setState('failed');
      flashError(flashKey, httpErrorToHuman(error));
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
    }, VARIABLE_SAVE_DELAY_MS);
  };

  useEffect(() => {
    // An error left from an earlier visit no longer matches the value shown.
    useGlobalStore.getState().clearFlashes(flashKey);
    return () => {
      clearTimeout(timer.current);
      if (waiting.current !== null) void sendRef.current(waiting.current);
      waiting.current = null;
    };
  }, [flashKey]);

  return { value, state, change };
}
