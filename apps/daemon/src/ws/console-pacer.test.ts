import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsolePacer, MAX_BUFFERED_BYTES, REPLAYED_LINES } from './console-pacer.ts';

afterEach(() => vi.useRealTimers());

function setup() {
  vi.useFakeTimers();
  const socket = { bufferedAmount: 0 };
  const history: string[] = [];
  const sent: string[] = [];
  let usable = true;
  const pacer = new ConsolePacer({
    socket,
    send: (line) => sent.push(line),
    recent: (count) => history.slice(-count),
    notice: (skipped) => `skipped ${skipped}`,
    usable: () => usable,
  });
  // As the server does: a line enters the history, then goes to the sockets.
  const print = (line: string) => {
    history.push(line);
    pacer.line(line);
  };
  return { socket, sent, print, pacer, setUsable: (v: boolean) => (usable = v) };
}

describe('ConsolePacer', () => {
  it('sends every line while the socket keeps up', () => {
    const { sent, print } = setup();
    for (let i = 0; i < 500; i++) print(`l${i}`);
    expect(sent).toHaveLength(500);
  });

  it('counts lines while the queue is full; a later line brings the notice and the newest lines', () => {
    const { socket, sent, print } = setup();
    print('before');
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    for (let i = 0; i < 300; i++) print(`s${i}`);
    expect(sent).toEqual(['before']);
    socket.bufferedAmount = 0;
    print('after');
    const tail = [...Array.from({ length: REPLAYED_LINES - 1 }, (_, i) => `s${201 + i}`), 'after'];
    expect(sent).toEqual(['before', 'skipped 201', ...tail]);
    print('next');
    expect(sent.at(-1)).toBe('next');
  });

  it('catches up on its own once the queue has drained below half the limit', async () => {
    const { socket, sent, print } = setup();
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    for (let i = 0; i < 10; i++) print(`s${i}`);
    socket.bufferedAmount = MAX_BUFFERED_BYTES * 0.75;
    await vi.advanceTimersByTimeAsync(500);
    expect(sent).toEqual([]);
    socket.bufferedAmount = MAX_BUFFERED_BYTES / 2;
    await vi.advanceTimersByTimeAsync(100);
    // Fewer lines than the replay holds: all of them, no notice.
    expect(sent).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
  });

  it('waits for a usable token and stops watching when disposed', async () => {
    const { socket, sent, print, pacer, setUsable } = setup();
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    print('s0');
    socket.bufferedAmount = 0;
    setUsable(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([]);
    pacer.dispose();
    setUsable(true);
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([]);
  });
});
