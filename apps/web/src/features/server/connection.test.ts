import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import {
  attachSocketHandlers,
  credentialsRetryDelay,
  JWT_FATAL_TEXT,
  NO_SOCKET_PERMISSION_TEXT,
  useServerConnection,
} from './connection.ts';
import { EULA_PROMPT, JAVA_MISMATCH } from './consoleMatch.ts';
import { openFakeSocket } from '../../test/fakeSocket.ts';
import { useServerStore } from './store.ts';
import { toServer } from '../../api/servers.ts';

afterEach(() => useServerStore.getState().clear());

function setup() {
  const { socket, sent, receive } = openFakeSocket('old');
  const refresh = vi.fn(() => Promise.resolve('fresh'));
  const reload = vi.fn();
  const restart = vi.fn();
  attachSocketHandlers(socket, { refreshToken: refresh, reloadServer: reload, restart });
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
  return { sent, refresh, reload, restart, receive, socket };
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
    receive('transfer status', 'success');
    expect(reload).toHaveBeenCalledTimes(2);
    receive('backup restore completed');
    expect(useServerStore.getState().server?.status).toBeNull();
    receive('stats', 'not json');
  });
});

describe('transfer status', () => {
  it('starting marks the transfer; success reloads the server and keeps the connection', () => {
    const { receive, reload, restart } = setup();
    receive('transfer status', 'starting');
    expect(useServerStore.getState().server?.isTransferring).toBe(true);
    receive('transfer status', 'success');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(restart).not.toHaveBeenCalled();
  });

  it('failure clears the transfer and starts the connection afresh', () => {
    const { receive, restart } = setup();
    receive('transfer status', 'starting');
    receive('transfer status', 'failure');
    expect(useServerStore.getState().server?.isTransferring).toBe(false);
    expect(restart).toHaveBeenCalledTimes(1);
  });

  it.each(['processing', 'cancelling', 'completed'])('%s starts the connection afresh', (status) => {
    const { receive, restart, reload } = setup();
    receive('transfer status', status);
    expect(restart).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('a token refresh that ends after the user left', () => {
  it('neither re-authenticates nor marks the next connection as failing', async () => {
    const { socket, sent, refresh, receive } = setup();
    let refuse: (reason: Error) => void = () => undefined;
    refresh.mockImplementationOnce(() => new Promise<string>((_, reject) => (refuse = reject)));
    receive('token expiring');
    const before = sent.length;
    socket.close();
    refuse(new Error('signed out'));
    await flush();
    expect(useServerStore.getState().socketError).toBe(false);
    expect(sent.length).toBe(before);
  });
});

/** A browser WebSocket stand-in: records every connection so a test can play the daemon's side. */
class FakeWebSocket {
  static made: FakeWebSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(readonly url: string) {
    FakeWebSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  play(event: string, ...args: string[]) {
    this.onmessage?.({ data: JSON.stringify({ event, args }) });
  }
}

/** Starts the console with `fetch` answering for credentials; the first socket, opened. */
async function openedFirstSocket(fetch: typeof globalThis.fetch): Promise<FakeWebSocket> {
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('WebSocket', FakeWebSocket);
  renderHook(() => useServerConnection('abcd1234', true, () => undefined));
  await vi.waitFor(() => expect(FakeWebSocket.made).toHaveLength(1));
  const first = FakeWebSocket.made[0]!;
  first.open();
  return first;
}

describe('opening the live connection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function answer(status: number, body: unknown) {
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  }

  it('does not ask for credentials without websocket.connect, and says why', () => {
    const fetch = vi.fn(() => answer(200, {}));
    vi.stubGlobal('fetch', fetch);
    const hook = renderHook(() => useServerConnection('abcd1234', false, () => undefined));
    expect(fetch).not.toHaveBeenCalled();
    expect(useServerStore.getState().socketFatal).toBe(NO_SOCKET_PERMISSION_TEXT);
    hook.unmount();
    expect(useServerStore.getState().socketFatal).toBeNull();
  });

  it('shows the panel refusal in words instead of retrying it', async () => {
    const refusal = { errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'No access.' }] };
    const fetch = vi.fn(() => answer(403, refusal));
    vi.stubGlobal('fetch', fetch);
    vi.useFakeTimers();
    renderHook(() => useServerConnection('abcd1234', true, () => undefined));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(useServerStore.getState().socketFatal).toBe('No access.');
  });

  it('retries failed credential requests after 5 s, then 7.5 s, …, at most 20 s apart', async () => {
    const fetch = vi.fn(() => answer(504, { errors: [{ detail: 'node down' }] }));
    vi.stubGlobal('fetch', fetch);
    vi.useFakeTimers();
    const hook = renderHook(() => useServerConnection('abcd1234', true, () => undefined));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(useServerStore.getState().socketError).toBe(true);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(7_500);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect([0, 1, 2, 6, 9].map(credentialsRetryDelay)).toEqual([5000, 7500, 10_000, 20_000, 20_000]);
    hook.unmount();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});

describe('starting the connection afresh after a transfer', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeWebSocket.made = [];
  });

  it('fetches new credentials and connects to the socket they name, closing the old one', async () => {
    const nodes = ['ws://node-a/api/servers/u/ws', 'ws://node-b/api/servers/u/ws'];
    const fetch = vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({ data: { token: `t${fetch.mock.calls.length}`, socket: nodes.shift() } }),
        ),
      ),
    );
    const first = await openedFirstSocket(fetch);
    expect(first.sent).toEqual([JSON.stringify({ event: 'auth', args: ['t1'] })]);
    first.play('auth success');
    expect(useServerStore.getState().connected).toBe(true);

    first.play('transfer status', 'completed');
    expect(first.closed).toBe(true);
    expect(useServerStore.getState().connected).toBe(false);
    await vi.waitFor(() => expect(FakeWebSocket.made).toHaveLength(2));
    const second = FakeWebSocket.made[1]!;
    expect(second.url).toBe('ws://node-b/api/servers/u/ws');
    expect(useServerStore.getState().socket).not.toBeNull();
    second.open();
    expect(second.sent).toEqual([JSON.stringify({ event: 'auth', args: ['t2'] })]);
    // The old connection's events no longer reach the store.
    first.play('status', 'stopping');
    expect(useServerStore.getState().powerState).toBeNull();
  });
});

describe('a node that ends the connection because access was withdrawn (deauthorize-user)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    FakeWebSocket.made = [];
  });

  it('reconnects, and on the denied old token fetches new credentials with what is granted now', async () => {
    let issued = 0;
    const fetch = vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({ data: { token: `t${++issued}`, socket: 'ws://node/api/servers/u/ws' } }),
        ),
      ),
    );
    const first = await openedFirstSocket(fetch);
    first.play('auth success');
    // The daemon closes with 1008 "access withdrawn": not a final code, so the page comes back.
    first.readyState = 3;
    first.onclose?.({ code: 1008 });
    expect(useServerStore.getState().connected).toBe(false);
    await vi.waitFor(() => expect(FakeWebSocket.made).toHaveLength(2), { timeout: 3000 });
    const second = FakeWebSocket.made[1]!;
    second.open();
    expect(second.sent).toEqual([JSON.stringify({ event: 'auth', args: ['t1'] })]);
    second.play('jwt error', 'jwt: created too far in past (denylist)');
    await vi.waitFor(() => expect(second.sent.at(-1)).toBe(JSON.stringify({ event: 'auth', args: ['t2'] })));
    expect(useServerStore.getState().socketFatal).toBeNull();
  });
});

describe('console lines the feature panels react to', () => {
  it.each([
    ['[12:00:01] [main/WARN]: Failed to load eula.txt', EULA_PROMPT, true],
    [
      'You need to agree to the EULA in order to run the server. Go to eula.txt for more info.',
      EULA_PROMPT,
      true,
    ],
    ['[12:00:01] Done (3.2s)! For help, type "help"', EULA_PROMPT, false],
    [
      'Exception in thread "main" java.lang.UnsupportedClassVersionError: net/minecraft/Main has been compiled by a more recent version of the Java Runtime (class file version 65.0)',
      JAVA_MISMATCH,
      true,
    ],
    ['Minecraft 1.17 requires running the server with Java 16 or above.', JAVA_MISMATCH, true],
    ['Loading libraries, please wait...', JAVA_MISMATCH, false],
  ])('%s', (line, pattern, matches) => {
    expect(pattern.test(line)).toBe(matches);
  });
});
