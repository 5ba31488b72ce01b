import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';

// Power actions and console commands sent over the console socket (how the web console sends them)
// reach the panel's activity log in the daemon's batches (reference §5.10, §8.14), naming the
// token's user and the browser's address. Those of the daemon's HTTP API are the panel's to log.
describe('websocket power actions and commands in the activity batches (real daemon)', () => {
  let stack: Stack;
  let uuid: string;
  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  /** Flushes the daemon's queue until an entry matching `pred` reached the stand-in panel. */
  async function reported(pred: (e: Stack['remote']['activity'][number]) => boolean) {
    await waitUntil(
      async () => {
        await stack.daemon.activity.flush();
        return stack.remote.activity.some(pred);
      },
      20_000,
      'activity entry',
    );
    return stack.remote.activity.filter(pred);
  }

  async function authed(user: string | undefined, permissions?: string[]): Promise<WsClient> {
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid, { user_uuid: user, ...(permissions ? { permissions } : {}) }));
    await ws.waitFor((m) => m.event === 'auth success');
    return ws;
  }

  const status = (ws: WsClient, state: string, from: number) =>
    ws.waitFor((m) => m.event === 'status' && m.args?.[0] === state, 30_000, from);

  it('records start, the command with its text, and kill, each with the user and the address', async () => {
    const alice = randomUUID();
    const ws = await authed(alice);
    ws.send('set state', 'start');
    await ws.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('), 30_000);
    ws.send('send command', 'say hello world');
    await ws.waitFor((m) => m.args?.[0] === '> say hello world');
    const killedAt = ws.messages.length;
    ws.send('set state', 'kill');
    await status(ws, 'offline', killedAt);

    const mine = await reported((e) => e.user === alice && e.event === 'server:power.kill');
    expect(mine).toHaveLength(1);
    const all = stack.remote.activity.filter((e) => e.user === alice);
    expect(all.map((e) => e.event)).toEqual([
      'server:power.start',
      'server:console.command',
      'server:power.kill',
    ]);
    expect(all.find((e) => e.event === 'server:console.command')?.metadata).toEqual({
      command: 'say hello world',
    });
    expect(all.find((e) => e.event === 'server:power.start')?.metadata).toEqual({});
    for (const e of all) {
      expect(e.server).toBe(uuid);
      expect((e as { ip?: string }).ip).toBe('127.0.0.1');
      expect(Date.parse((e as { timestamp?: string }).timestamp ?? '')).not.toBeNaN();
    }
  }, 120_000);

  it('records nothing for what a token may not do, nor for the HTTP API (the panel logs those)', async () => {
    const bob = randomUUID();
    const carol = randomUUID();
    const weak = await authed(bob, ['websocket.connect']);
    const full = await authed(carol);

    // The daemon's HTTP power route: the panel's own client API logs this start itself.
    const res = await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'start' });
    expect(res.status).toBe(202);
    await full.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('), 30_000);

    // Refused for lack of permission: silently ignored, and not recorded.
    weak.send('set state', 'kill');
    weak.send('send command', 'say from-the-weak-token');
    // Frames of one socket are handled in order: once its stats are answered, both were handled.
    const acked = weak.messages.length;
    weak.send('send stats');
    await weak.waitFor((m) => m.event === 'stats', 10_000, acked);

    // An acknowledgement for the queue: carol's command is recorded after anything before it.
    full.send('send command', 'say marker');
    await reported((e) => e.user === carol && e.event === 'server:console.command');
    expect(stack.remote.activity.filter((e) => e.user === bob)).toEqual([]);
    expect(stack.remote.activity.filter((e) => e.user === carol).map((e) => [e.event, e.metadata])).toEqual([
      ['server:console.command', { command: 'say marker' }],
    ]);

    const stoppedAt = full.messages.length;
    full.send('set state', 'kill');
    await status(full, 'offline', stoppedAt);
  }, 120_000);

  it('sends a token without a user as an entry without one, and nothing for a stopped server', async () => {
    const anonymous = await authed(undefined);
    // Offline: the console takes no line, so there is nothing to record.
    anonymous.send('send command', 'say nobody-listens');
    anonymous.send('set state', 'start');
    await anonymous.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('), 30_000);
    const starts = await reported((e) => e.user === null && e.event === 'server:power.start');
    expect(starts).toHaveLength(1);
    expect(stack.remote.activity.some((e) => JSON.stringify(e.metadata).includes('nobody-listens'))).toBe(
      false,
    );
    const killedAt = anonymous.messages.length;
    anonymous.send('set state', 'kill');
    await status(anonymous, 'offline', killedAt);
  }, 120_000);
});
