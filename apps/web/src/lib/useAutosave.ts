import { useEffect, useRef, useState } from 'react';

/** idle → waiting (debounce running) → saving (request out) → saved or failed */
export type AutosaveState = 'idle' | 'waiting' | 'saving' | 'saved' | 'failed';

/** Tells a save whether its request is still the newest one sent. */
export interface SaveTicket {
  /** Increases with every request: a larger one was sent later. */
  seq: number;
  isLatest: () => boolean;
}

/**
 * A text field saved by itself: `save` runs `delayMs` after the last change, only while `enabled`.
 * Answers may come back out of order, so only the newest request sets the state (a save uses its
 * ticket to ignore stale answers). An edit still waiting when the component goes away is sent at
 * once rather than lost. A failed save calls `onError` with what was thrown.
 */
export function useAutosave(
  initial: string,
  options: {
    delayMs: number;
    enabled: boolean;
    save: (value: string, ticket: SaveTicket) => Promise<void>;
    onSaving?: () => void;
    onError: (error: unknown) => void;
  },
) {
  const [value, setValue] = useState(initial);
  const [state, setState] = useState<AutosaveState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<string | null>(null);
  const sent = useRef(0);
  // The latest options, read when the timer fires or the component unmounts.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const send = async (next: string) => {
    const seq = ++sent.current;
    const isLatest = () => seq === sent.current;
    setState('saving');
    latest.current.onSaving?.();
    try {
      await latest.current.save(next, { seq, isLatest });
      if (isLatest()) setState('saved');
    } catch (error) {
      if (!isLatest()) return;
      setState('failed');
      latest.current.onError(error);
    }
  };
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });

  const change = (next: string) => {
    if (!options.enabled) return;
    setValue(next);
    setState('waiting');
    clearTimeout(timer.current);
    waiting.current = next;
    timer.current = setTimeout(() => {
      waiting.current = null;
      void sendRef.current(next);
    }, options.delayMs);
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
