import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';

/**
 * CVE-2025-69199 (protocol §9.2b) on a real daemon: the per-server socket cap, the frame size limit
 * and the `throttled` answer. The rates themselves are tested on a hand-moved clock in limits.test.ts.
 */
describe('websocket limits (real daemon)', () => {
  let stack: Stack;
  let uuid: string;
  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  /** The status and body of a refused upgrade. */
  const refusedUpgrade = (server: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(`${stack.url.replace('http', 'ws')}/api/servers/${server}/ws`, {
        headers: { Origin: stack.config.remote },
      });
      socket.once('open', () => {
        socket.terminate();
        reject(new Error('upgrade accepted'));
      });
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('error', reject);
    });

  /** A socket on `server` authenticated with its own user's token. */
  const authenticated = async (server: string): Promise<WsClient> => {
    const ws = await stack.ws(server);
    ws.send('auth', await stack.token(server));
    await ws.waitFor((m) => m.event === 'auth success');
    return ws;
  };

  it('at most 30 authenticated sockets per server, all users together; the 31st upgrade is refused with 400', async () => {
    // its own server, so the sockets it leaves closing do not count against the other tests
    const crowded = await stack.createInstalled();
    const open: WsClient[] = [];
    // one user each: the cap is for all users together
    for (let i = 0; i < 30; i++) open.push(await authenticated(crowded));
    const refused = await refusedUpgrade(crowded);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([
      400,
      { error: 'Too many open websocket connections.' },
    ]);
    // another server has its own count
    (await stack.ws(uuid)).close();
    // a closed socket frees its place
    open.pop()!.close();
    await waitUntil(
      async () =>
        stack
          .ws(crowded)
          .then((ws) => (open.push(ws), true))
          .catch(() => false),
      10_000,
      'a free place',
    );
    for (const ws of open) ws.close();
  });

  it('30 unauthenticated sockets do not lock a server: a new upgrade takes the place of the oldest of them', async () => {
    const crowded = await stack.createInstalled();
    const squatters: WsClient[] = [];
    for (let i = 0; i < 30; i++) squatters.push(await stack.ws(crowded));
    const closes = squatters.map(
      (s) => new Promise<[number, string]>((r) => s.socket.once('close', (c, why) => r([c, why.toString()]))),
    );
    // the legitimate user still gets in, and in time authenticates
    const user = await stack.ws(crowded);
    expect(await closes[0]).toEqual([1008, 'replaced: not authenticated']);
    user.send('auth', await stack.token(crowded));
    await user.waitFor((m) => m.event === 'auth success');
    // one more upgrade pushes out the next oldest unauthenticated socket, never the authenticated one
    const second = await stack.ws(crowded);
    expect(await closes[1]).toEqual([1008, 'replaced: not authenticated']);
    expect(user.socket.readyState).toBe(user.socket.OPEN);
    expect(squatters[2]!.socket.readyState).toBe(squatters[2]!.socket.OPEN);
    for (const ws of [...squatters, user, second]) ws.close();
  });

  it('a frame over 4096 bytes closes the socket with 1009 without being read', async () => {
    const ws = await stack.ws(uuid);
    const closed = new Promise<number>((r) => ws.socket.once('close', (code) => r(code)));
    ws.send('send command', 'x'.repeat(4097));
    expect(await closed).toBe(1009);
    // exactly at the limit is fine: the socket answers
    const ok = await stack.ws(uuid);
    const frame = JSON.stringify({ event: 'send stats', args: [''] });
    ok.socket.send(JSON.stringify({ event: 'send stats', args: ['y'.repeat(4096 - frame.length)] }));
    await ok.waitFor((m) => m.event === 'jwt error');
    ok.close();
  });

  it('over a rate, a message is not acted on and answered with throttled', async () => {
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    // `send stats` allows 4 per second: of 8 sent at once, at least the last ones are throttled
    for (let i = 0; i < 8; i++) ws.send('send stats');
    await ws.waitFor((m) => m.event === 'throttled' && m.args?.[0] === 'send stats');
    const before = ws.messages.length;
    // the socket's own bucket (10) empties under 30 frames of anything, garbage included
    for (let i = 0; i < 30; i++) ws.socket.send('not json');
    await ws.waitFor((m) => m.event === 'throttled' && m.args?.[0] === 'global', 10_000, before);
    const stats = ws.messages.filter((m) => m.event === 'stats').length;
    const throttled = ws.messages.filter((m) => m.event === 'throttled' && m.args?.[0] === 'send stats');
    // every `send stats` was either answered or throttled (auth's own stats frame aside)
    expect(stats + throttled.length).toBeGreaterThanOrEqual(8);
    expect(throttled.length).toBeGreaterThan(0);
    ws.close();
  });
});

describe('websocket authentication deadline (real daemon, 2 s deadline)', () => {
  let stack: Stack;
  let uuid: string;
  beforeAll(async () => {
    stack = await startStack({ build: { wsAuthDeadlineMs: 2000 } });
    uuid = await stack.createInstalled();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('a socket that has not authenticated by the deadline is closed; an authenticated one stays', async () => {
    // `early` opens first, so its deadline falls first: if authenticated sockets were closed too,
    // it would be closed before `silent`.
    const early = await stack.ws(uuid);
    const silent = await stack.ws(uuid);
    const closed = new Promise<[number, string]>((r) =>
      silent.socket.once('close', (c, why) => r([c, why.toString()])),
    );
    early.send('auth', await stack.token(uuid));
    await early.waitFor((m) => m.event === 'auth success');
    // before authenticating, events are still answered with `jwt error`
    silent.send('send stats');
    await silent.waitFor((m) => m.event === 'jwt error');
    expect(await closed).toEqual([1008, 'authentication timeout']);
    expect(early.socket.readyState).toBe(early.socket.OPEN);
    early.send('send stats');
    await early.waitFor((m) => m.event === 'stats');
    early.close();
  });
});
