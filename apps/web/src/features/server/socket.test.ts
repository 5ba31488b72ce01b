import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerSocket, SOCKET_OPEN, type SocketLike } from './socket.ts';
import { LineBatcher } from './lineBatcher.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.call(this, {});
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.call(this, { code });
  }
  message(data: string) {
    this.onmessage?.call(this, { data });
  }
}

let sockets: FakeSocket[];
const factory = () => {
  const s = new FakeSocket();
  sockets.push(s);
  return s;
};

beforeEach(() => {
  sockets = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('ServerSocket', () => {
  it('authenticates on open and on every reconnect', () => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).setToken('t1').connect();
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([JSON.stringify({ event: 'auth', args: ['t1'] })]);
    sockets[0]!.serverClose(1006);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([JSON.stringify({ event: 'auth', args: ['t1'] })]);
    socket.setToken('t2', true);
    expect(sockets[1]!.sent.at(-1)).toBe(JSON.stringify({ event: 'auth', args: ['t2'] }));
    socket.close();
  });

  it.each([1000, 1001, 1005])('does not reconnect after close code %i', (code) => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).connect();
    sockets[0]!.open();
    sockets[0]!.serverClose(code);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    socket.close();
  });

  it.each([1006, 1011, 4004])('retries after 1 s on close code %i', (code) => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).connect();
    sockets[0]!.open();
    sockets[0]!.serverClose(code);
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    socket.close();
  });

  it('the watchdog backs off 5 s, +2.5 s, up to 20 s, and resets on open', () => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).connect();
    expect(socket.watchdogDelay).toBe(5000);
    const recreatedAt: number[] = [];
    let count = 1;
    for (let t = 0; t < 80_000; t += 100) {
      vi.advanceTimersByTime(100);
      if (sockets.length > count) {
        count = sockets.length;
        recreatedAt.push(t + 100);
      }
    }
    // Never opened, never closed: only the watchdog recreates it.
    expect(recreatedAt).toEqual([5000, 12_500, 22_500, 35_000, 50_000, 67_500]);
    expect(socket.watchdogDelay).toBe(20_000);
    sockets.at(-1)!.open();
    expect(socket.watchdogDelay).toBe(5000);
    socket.close();
  });

  it('emits parsed events and only logs unparseable messages', () => {
    const log = vi.fn();
    const socket = new ServerSocket('ws://x', factory, log).connect();
    const seen: string[][] = [];
    socket.on('console output', (...args) => seen.push(args));
    const opened = vi.fn();
    socket.on(SOCKET_OPEN, opened);
    sockets[0]!.open();
    sockets[0]!.message(JSON.stringify({ event: 'console output', args: ['hello'] }));
    sockets[0]!.message('not json');
    sockets[0]!.message(JSON.stringify({ nothing: true }));
    expect(seen).toEqual([['hello']]);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(2);
    socket.close();
  });

  it('close() stops retries and the watchdog', () => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).connect();
    socket.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closedWith).toBe(1000);
  });

  it('send does nothing while not open', () => {
    const socket = new ServerSocket('ws://x', factory, () => undefined).connect();
    socket.send('send logs');
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.open();
    socket.send('set state', 'start');
    expect(sockets[0]!.sent).toEqual([JSON.stringify({ event: 'set state', args: ['start'] })]);
    socket.close();
  });
});

describe('LineBatcher', () => {
  it('writes everything pushed before a frame in one piece', () => {
    const writes: [string, number][] = [];
    const queued: (() => void)[] = [];
    const batcher = new LineBatcher(
      (text, lines) => writes.push([text, lines]),
      (run) => queued.push(run),
    );
    for (let i = 0; i < 1000; i++) batcher.push(`line ${i}`);
    expect(queued).toHaveLength(1);
    queued[0]!();
    expect(writes).toHaveLength(1);
    expect(writes[0]![1]).toBe(1000);
    expect(writes[0]![0].split('\r\n')).toHaveLength(1001);
    batcher.push('again');
    expect(queued).toHaveLength(2);
    batcher.discard();
    queued[1]!();
    expect(writes).toHaveLength(1);
  });
});
