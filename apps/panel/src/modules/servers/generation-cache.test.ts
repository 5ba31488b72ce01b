import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { GenerationCache } from './generation-cache.ts';

// The client server list reuses its answer only while nothing it shows has changed, whichever panel
// sharing the database made the change.
let panel: TestPanel;
let other: TestPanel; // a second panel on the same database
let alice: User;
let bob: User;
let node: Node;
let egg: Egg;
let server: Server;
let shared: Server;
let aliceClient: TestClient;
let bobClient: TestClient;

beforeAll(async () => {
  panel = await startTestPanel();
  other = await startTestPanel({ DATABASE_URL: panel.ctx.config.databaseUrl });
  ({ node, egg } = await nodeAndEgg(panel.ctx, [45200, 45209]));
  alice = await panel.createUser({ username: 'alice' });
  bob = await panel.createUser({ username: 'bob' });
  server = await serverRow(panel.ctx, node, egg, alice.id, { name: 'Alpha' });
  shared = await serverRow(panel.ctx, node, egg, alice.id, { name: 'Shared' });
  await addSubuser(panel.ctx, shared, bob, ['control.console']);
  aliceClient = await other.signedIn(alice);
  bobClient = await other.signedIn(bob);
});
afterAll(async () => {
  await other.close();
  await panel.close();
});

type Listed = { data: { attributes: Record<string, any> }[] };
const list = async (client: TestClient, query = '') => {
  const res = await client.request<Listed>('GET', `/api/client${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.body.data.map((d) => d.attributes);
};
const named = async (client: TestClient, uuid: string) =>
  (await list(client)).find((s) => s.uuid === uuid) ?? null;

describe('GET /api/client answer reuse', () => {
  it('builds the answer once while nothing changes, and per query string', async () => {
    const bundles = vi.spyOn(other.ctx.repositories.servers, 'bundles');
    try {
      const first = await list(aliceClient);
      const again = await list(aliceClient);
      expect(again).toEqual(first);
      expect(bundles).toHaveBeenCalledTimes(1);
      const page = await list(aliceClient, '?per_page=1');
      expect(page).toHaveLength(1);
      expect(bundles).toHaveBeenCalledTimes(2);
    } finally {
      bundles.mockRestore();
    }
  });

  it('shows every change made through the other panel or straight in the database', async () => {
    const db = panel.ctx.db.db;
    await list(aliceClient);
    const changes: [string, () => Promise<unknown>, (s: Record<string, any>) => unknown, unknown][] = [
      [
        'servers',
        () => db.updateTable('servers').set({ name: 'Renamed' }).where('id', '=', server.id).execute(),
        (s) => s.name,
        'Renamed',
      ],
      [
        'allocations',
        () =>
          db
            .updateTable('allocations')
            .set({ notes: 'lobby' })
            .where('id', '=', server.allocation_id)
            .execute(),
        (s) => s.relationships.allocations.data[0].attributes.notes,
        'lobby',
      ],
      [
        'nodes',
        () => db.updateTable('nodes').set({ fqdn: 'play.example.com' }).where('id', '=', node.id).execute(),
        (s) => s.sftp_details.ip,
        'play.example.com',
      ],
      [
        'eggs',
        () => db.updateTable('eggs').set({ features: '["eula"]' }).where('id', '=', egg.id).execute(),
        (s) => s.egg_features,
        ['eula'],
      ],
      [
        'egg_variables',
        () =>
          db
            .updateTable('egg_variables')
            .set({ name: 'Renamed variable' })
            .where('egg_id', '=', egg.id)
            .execute(),
        (s) => s.relationships.variables.data[0]?.attributes.name,
        'Renamed variable',
      ],
      [
        'server_variables',
        () =>
          db
            .updateTable('server_variables')
            .set({ variable_value: 'changed' })
            .where('server_id', '=', server.id)
            .execute(),
        (s) => s.relationships.variables.data[0]?.attributes.server_value,
        'changed',
      ],
    ];
    for (const [table, change, read, expected] of changes) {
      await change();
      expect(read((await named(aliceClient, server.uuid))!), table).toEqual(expected);
    }
  });

  it('follows a change to the caller: a subuser removed on one panel no longer sees the server on the other', async () => {
    expect(await named(bobClient, shared.uuid)).not.toBeNull();
    await panel.ctx.db.db.deleteFrom('subusers').where('server_id', '=', shared.id).execute();
    expect(await named(bobClient, shared.uuid)).toBeNull();
    await addSubuser(panel.ctx, shared, bob, ['control.console']);
    expect(await named(bobClient, shared.uuid)).not.toBeNull();
  });

  it('never answers one user with another user’s list', async () => {
    const forAlice = await list(aliceClient);
    const forBob = await list(bobClient);
    expect(forAlice.map((s) => s.uuid).sort()).toEqual([server.uuid, shared.uuid].sort());
    expect(forBob.map((s) => s.uuid)).toEqual([shared.uuid]);
    expect(forBob[0]!.server_owner).toBe(false);
  });
});

describe('server route guard reuse', () => {
  it('sees a suspension, an owner change and a node in maintenance made elsewhere at once', async () => {
    const db = panel.ctx.db.db;
    const probe = await serverRow(panel.ctx, node, egg, alice.id, { name: 'Probe' });
    const details = () => aliceClient.request('GET', `/api/client/servers/${probe.uuid_short}/resources`);
    const find = vi.spyOn(other.ctx.repositories.servers, 'findByIdentifier');
    try {
      await details();
      await details();
      expect(find).toHaveBeenCalledTimes(1); // the second request reused the rows
    } finally {
      find.mockRestore();
    }
    await db.updateTable('servers').set({ status: 'suspended' }).where('id', '=', probe.id).execute();
    expect((await details()).status).toBe(409);
    await db.updateTable('servers').set({ status: null }).where('id', '=', probe.id).execute();
    await db.updateTable('nodes').set({ maintenance_mode: 1 }).where('id', '=', node.id).execute();
    expect((await details()).status).toBe(409);
    await db.updateTable('nodes').set({ maintenance_mode: 0 }).where('id', '=', node.id).execute();
    await db.updateTable('servers').set({ owner_id: bob.id }).where('id', '=', probe.id).execute();
    expect((await details()).status).toBe(404);
  });
});

describe('GenerationCache', () => {
  const body = (n: number) => Buffer.alloc(n);
  const buffers = (limits: { maxEntries: number; maxBytes: number }) =>
    new GenerationCache<Buffer>({ ...limits, sizeOf: (b) => b.length });

  it('misses once the generation moves on', () => {
    const cache = buffers({ maxEntries: 10, maxBytes: 1000 });
    cache.set('a', 1, body(10));
    expect(cache.get('a', 1)).toHaveLength(10);
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.get('a', 1)).toBeUndefined(); // the stale entry is gone
  });

  it('evicts the least recently used entries beyond its entry and byte limits', () => {
    const cache = buffers({ maxEntries: 2, maxBytes: 100 });
    cache.set('a', 1, body(10));
    cache.set('b', 1, body(10));
    cache.get('a', 1);
    cache.set('c', 1, body(10));
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    cache.set('d', 1, body(20));
    cache.set('e', 1, body(20));
    cache.set('f', 1, body(70)); // above a quarter of the bytes: not kept at all
    expect(cache.get('f', 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
