import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server } from '../db/types.ts';
import { nodeAndEgg, remoteClient, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

// POST /api/remote/activity (reference §5.10): a daemon's batch is validated as a whole and stored
// as a whole. A malformed entry refuses the batch (422, nothing stored): the daemon drops a refused
// batch, and never sends it again, so a batch half stored then failed would be re-sent by no one
// and a batch stored and answered 5xx would be stored twice.
let panel: TestPanel;
let node: Node;
let server: Server;

beforeAll(async () => {
  panel = await startTestPanel();
  const setup = await nodeAndEgg(panel.ctx, [46300, 46305]);
  node = setup.node;
  const owner = await panel.createUser({ username: 'activity-owner' });
  server = await serverRow(panel.ctx, node, setup.egg, owner.id);
});
afterAll(async () => {
  await panel?.close();
});

const stored = async () =>
  (
    await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', 'like', 'server:batch.%')
      .execute()
  ).map((r) => r.event);

const entry = (n: number, over: Record<string, unknown> = {}) => ({
  user: null,
  server: server.uuid,
  event: `server:batch.${n}`,
  metadata: { n },
  ip: '192.0.2.1',
  timestamp: '2026-01-02T03:04:05.123456789Z',
  ...over,
});

describe('POST /api/remote/activity', () => {
  it.each([
    ['an address that is not an IP', { ip: 'not-an-ip' }, 'data.1.ip'],
    ['a server that is not a uuid', { server: 'abc' }, 'data.1.server'],
    ['a user that is not a uuid', { user: 42 }, 'data.1.user'],
    ['no timestamp', { timestamp: undefined }, 'data.1.timestamp'],
    ['no metadata', { metadata: undefined }, 'data.1.metadata'],
  ])('refuses a batch with %s (422) and stores none of it', async (_what, over, field) => {
    const res = await remoteClient(panel, node).post('/api/remote/activity', {
      data: [entry(1), entry(2, over), entry(3)],
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'ValidationException', status: '422' });
    expect(res.body.errors.map((e: { meta?: { source_field?: string } }) => e.meta?.source_field)).toContain(
      field,
    );
    expect(await stored()).toEqual([]);
  });

  it('stores a whole batch, null user and address allowed', async () => {
    const res = await remoteClient(panel, node).post('/api/remote/activity', {
      data: [entry(4), entry(5, { ip: null, metadata: null })],
    });
    expect(res.status, res.text).toBe(204);
    expect((await stored()).sort()).toEqual(['server:batch.4', 'server:batch.5']);
  });
});
