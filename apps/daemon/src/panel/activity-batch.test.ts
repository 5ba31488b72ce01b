import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN, TOKEN_ID } from '../test-support/harness.ts';
import { RemoteStandIn } from '../test-support/remote-stand-in.ts';
import { ActivityBatch, type ActivityInput } from './activity-batch.ts';
import { RemoteClient } from './client.ts';

// POST /api/remote/activity (§5.10; CVE-2026-21696 class): the daemon's activity upload goes in
// bounded batches, each removed only once the panel acknowledged it (never sent again after that),
// a refused one (4xx) dropped and logged, a failed one (5xx, network) kept and retried with a
// growing delay, and the queue bounded while the panel is away. The panel here is the remote
// stand-in over real HTTP; only the daemon's timers are fake.

const INTERVAL = 10_000;
let remote: RemoteStandIn;
let batch: ActivityBatch;
let logs: { level: number; msg: string; [k: string]: unknown }[];

function start(maxQueued?: number, url?: string): Promise<void> {
  return (url ? Promise.resolve(url) : remote.start()).then((base) => {
    // The request timeout is a fake timer too: far beyond any advance here, so an answered request
    // is never cut off by the test's own clock jumps.
    const client = new RemoteClient({ baseUrl: base, tokenId: TOKEN_ID, token: TOKEN, timeoutSeconds: 3600 });
    const log = pino({ level: 'info' }, { write: (l: string) => void logs.push(JSON.parse(l)) });
    batch = new ActivityBatch(client, log, { intervalMs: INTERVAL, maxQueued });
  });
}

const event = (i: number): ActivityInput => ({
  user: null,
  server: randomUUID(),
  event: `server:test.${i}`,
  metadata: { n: i },
  ip: '127.0.0.1',
});

/** Let the interval pass and wait for the send it started. */
async function tick(ms = INTERVAL): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await batch.idle();
}

const accepted = () => remote.activity.map((e) => (e.metadata as { n: number }).n);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  remote = new RemoteStandIn(TOKEN_ID, TOKEN);
  logs = [];
});

afterEach(async () => {
  vi.useRealTimers();
  await remote.close();
});

describe('activity batches (§5.10)', () => {
  it('sends at most 100 entries a request, each acknowledged entry exactly once', async () => {
    await start();
    for (let i = 0; i < 250; i++) batch.record(event(i));
    await tick();
    while (batch.queued > 0) await tick();
    expect(remote.activityBatches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(accepted()).toEqual(Array.from({ length: 250 }, (_, i) => i));
    // Acknowledged: nothing is sent again, however long the daemon runs.
    await tick(10 * INTERVAL);
    expect(remote.activityBatches).toHaveLength(3);
  });

  it('a batch the panel fails (5xx) is kept and sent again after a growing delay, then once only', async () => {
    await start();
    remote.activityStatuses.push(500, 503);
    for (let i = 0; i < 3; i++) batch.record(event(i));
    await tick();
    expect(remote.activityBatches).toHaveLength(1);
    expect(batch.queued).toBe(3);
    // First retry after one interval, the second after two.
    await tick(INTERVAL);
    expect(remote.activityBatches).toHaveLength(2);
    await tick(2 * INTERVAL - 1);
    expect(remote.activityBatches).toHaveLength(2);
    await tick(1);
    expect(remote.activityBatches).toHaveLength(3);
    expect(accepted()).toEqual([0, 1, 2]);
    expect(batch.queued).toBe(0);
    await tick(10 * INTERVAL);
    expect(remote.activityBatches).toHaveLength(3);
    expect(logs.filter((l) => l.msg === 'activity not accepted by the panel; will retry')).toHaveLength(2);
  });

  it('a batch the panel refuses (4xx) is dropped with a log line, and later entries still go', async () => {
    await start();
    remote.activityStatuses.push(422);
    for (let i = 0; i < 3; i++) batch.record(event(i));
    await tick();
    expect(batch.queued).toBe(0);
    expect(logs.find((l) => l.msg === 'activity refused by the panel; dropped')).toMatchObject({
      entries: 3,
      status: 422,
    });
    batch.record(event(3));
    await tick();
    expect(remote.activityBatches.map((b) => b.length)).toEqual([3, 1]);
    expect(accepted()).toEqual([3]);
  });

  it('while the panel is unreachable the queue stays bounded: the oldest entries go, with a log line', async () => {
    // Nothing listens on the stand-in's address any more.
    const url = await remote.start();
    await remote.close();
    await start(500, url);
    for (let i = 0; i < 520; i++) batch.record(event(i));
    expect(batch.queued).toBe(500);
    expect(logs.find((l) => l.msg === 'activity queue full; oldest entries dropped')).toMatchObject({
      dropped: 1,
    });
    await tick();
    expect(batch.queued).toBe(500);
    batch.record(event(520));
    expect(batch.queued).toBe(500);
  });

  it('an IPv6 address is sent without its zone, which the panel would refuse', async () => {
    await start();
    batch.record({ ...event(0), ip: 'fe80::1%eth0' });
    await tick();
    expect(remote.activityBatches[0]?.map((e) => (e as { ip?: string }).ip)).toEqual(['fe80::1']);
  });

  it('files merged into one entry are bounded too', async () => {
    await start();
    const user = randomUUID();
    const server = randomUUID();
    for (let i = 0; i < 2500; i++) {
      batch.record({
        user,
        server,
        event: 'server:sftp.write',
        metadata: { files: [`/f${i}`] },
        ip: '127.0.0.1',
      });
    }
    await tick();
    const sizes = remote.activity.map((e) => (e.metadata as { files: string[] }).files.length);
    expect(sizes).toEqual([1000, 1000, 500]);
  });
});
