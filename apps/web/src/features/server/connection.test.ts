import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachSocketHandlers, JWT_FATAL_TEXT } from './connection.ts';
import { ServerSocket, type SocketLike } from './socket.ts';
import { useServerStore } from './store.ts';
import { toServer } from '../../api/servers.ts';

afterEach(() => useServerStore.getState().clear());

function setup() {
  const sent: string[] = [];
  const raw: SocketLike = {
    readyState: 0,
    onopen: null,
    onclose: null,
    onmessage: null,
    onerror: null,
    send: (d) => sent.push(d),
    close: () => undefined,
  };
  const socket = new ServerSocket(
    'ws://x',
    () => raw,
    () => undefined,
  )
    .setToken('old')
    .connect();
  (raw as { readyState: number }).readyState = 1;
  raw.onopen?.call(raw, {});
  const refresh = vi.fn(() => Promise.resolve('fresh'));
  const reload = vi.fn();
  attachSocketHandlers(socket, refresh, reload);
  useServerStore.getState().setServer(
    toServer({
      identifier: 'a',
      internal_id: 1,
      uuid: 'u',
      name: 'S',
      description: null,
      node: 'n',
      status: null,
    }),
    ['*'],
    true,
  );
  const receive = (event: string, ...args: string[]) =>
    raw.onmessage?.call(raw, { data: JSON.stringify({ event, args }) });
  return { sent, refresh, reload, receive, socket };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('live connection handlers', () => {
  it('marks the connection on auth success and asks for stats', () => {
    const { sent, receive } = setup();
    receive('auth success');
    expect(useServerStore.getState().connected).toBe(true);
    expect(sent.at(-1)).toBe(JSON.stringify({ event: 'send stats', args: [] }));
  });

  it.each(['token expiring', 'token expired'])('re-authenticates with a fresh token on %s', async (event) => {
    const { sent, refresh, receive } = setup();
    receive(event);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sent.at(-1)).toBe(JSON.stringify({ event: 'auth', args: ['fresh'] }));
  });

  it.each([
    ['jwt: exp claim is invalid', true],
    ['jwt: created too far in past (denylist)', true],
    ['jwt: no jwt present', false],
  ])('jwt error %s → refresh %s', async (message, refreshes) => {
    const { refresh, receive } = setup();
    receive('jwt error', message);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(refreshes ? 1 : 0);
    expect(useServerStore.getState().socketFatal).toBe(refreshes ? null : JWT_FATAL_TEXT);
  });

  it('follows status, stats, install and transfer events', () => {
    const { receive, reload } = setup();
    receive('status', 'starting');
    expect(useServerStore.getState().powerState).toBe('starting');
    receive(
      'stats',
      JSON.stringify({
        memory_bytes: 5,
        cpu_absolute: 1.5,
        network: { rx_bytes: 1, tx_bytes: 2 },
        uptime: 10,
        state: 'running',
        disk_bytes: 3,
      }),
    );
    expect(useServerStore.getState().stats).toMatchObject({
      memoryBytes: 5,
      cpuAbsolute: 1.5,
      rxBytes: 1,
      uptime: 10,
    });
    expect(useServerStore.getState().powerState).toBe('running');
    receive('install started');
    expect(useServerStore.getState().server?.isInstalling).toBe(true);
    receive('install completed');
    expect(reload).toHaveBeenCalledTimes(1);
    receive('transfer status', 'starting');
    expect(useServerStore.getState().server?.isTransferring).toBe(true);
    receive('transfer status', 'failure');
    expect(useServerStore.getState().server?.isTransferring).toBe(false);
    receive('transfer status', 'success');
    expect(reload).toHaveBeenCalledTimes(2);
    receive('backup restore completed');
    expect(useServerStore.getState().server?.status).toBeNull();
    receive('stats', 'not json');
  });
});
