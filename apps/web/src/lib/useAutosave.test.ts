import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useAutosave, type SaveTicket } from './useAutosave.ts';

afterEach(() => vi.useRealTimers());

/** A save whose answers the test releases one by one, in any order. */
function controlledSave() {
  const calls: { value: string; ticket: SaveTicket; resolve: () => void; reject: (e: Error) => void }[] = [];
  const save = (value: string, ticket: SaveTicket) =>
    new Promise<void>((resolve, reject) => calls.push({ value, ticket, resolve, reject }));
  return { calls, save };
}

describe('useAutosave', () => {
  it('saves once, delayMs after the last change, and only when enabled', async () => {
    vi.useFakeTimers();
    const { calls, save } = controlledSave();
    const hook = renderHook(
      ({ enabled }) => useAutosave('a', { delayMs: 500, enabled, save, onError: vi.fn() }),
      {
        initialProps: { enabled: true },
      },
    );
    act(() => hook.result.current.change('ab'));
    act(() => hook.result.current.change('abc'));
    expect(hook.result.current.state).toBe('waiting');
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(calls).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(calls.map((c) => c.value)).toEqual(['abc']);
    expect(hook.result.current.state).toBe('saving');
    await act(async () => calls[0]!.resolve());
    expect(hook.result.current.state).toBe('saved');
    hook.rerender({ enabled: false });
    act(() => hook.result.current.change('ignored'));
    expect(hook.result.current.value).toBe('abc');
  });

  it('lets only the newest request set the state, whatever order the answers come in', async () => {
    vi.useFakeTimers();
    const { calls, save } = controlledSave();
    const onError = vi.fn();
    const hook = renderHook(() => useAutosave('', { delayMs: 100, enabled: true, save, onError }));
    act(() => hook.result.current.change('first'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    act(() => hook.result.current.change('second'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(calls.map((c) => [c.value, c.ticket.seq])).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
    expect(calls[0]!.ticket.isLatest()).toBe(false);
    await act(async () => calls[1]!.resolve());
    await act(async () => calls[0]!.reject(new Error('stale refusal')));
    expect(hook.result.current.state).toBe('saved');
    expect(onError).not.toHaveBeenCalled();
  });

  it('reports a failure of the newest request', async () => {
    vi.useFakeTimers();
    const { calls, save } = controlledSave();
    const onError = vi.fn();
    const hook = renderHook(() => useAutosave('', { delayMs: 100, enabled: true, save, onError }));
    act(() => hook.result.current.change('x'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(async () => calls[0]!.reject(new Error('refused')));
    expect(hook.result.current.state).toBe('failed');
    expect(onError).toHaveBeenCalledWith(new Error('refused'));
  });

  it('sends an edit still waiting when the component goes away', () => {
    vi.useFakeTimers();
    const { calls, save } = controlledSave();
    const hook = renderHook(() => useAutosave('', { delayMs: 750, enabled: true, save, onError: vi.fn() }));
    act(() => hook.result.current.change('last words'));
    hook.unmount();
    expect(calls.map((c) => c.value)).toEqual(['last words']);
  });
});
