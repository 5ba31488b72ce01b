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

  it('at most 30 sockets per server, all users together; the 31st upgrade is refused with 400', async () => {
    // its own server, so the sockets it leaves closing do not count against the other tests
    const crowded = await stack.createInstalled();
    const open: WsClient[] = [];
    for (let i = 0; i < 30; i++) open.push(await stack.ws(crowded));
    // authenticated or not, by any user: every socket counts
    open[0]!.send('auth', await stack.token(crowded));
    await open[0]!.waitFor((m) => m.event === 'auth success');
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
