import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Allocation, Egg, Node, Server, User } from '../../db/types.ts';
import { TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { clientAllocationsEnv, startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The client network routes on the panel alone: the node of these servers has no daemon, so the
// sync after a change fails and is only logged (as for the application API's build changes).
// The local node gets ports 44280-44283 on 127.0.0.1; users may make new ones in 44295-44296.
const NODE_PORTS: [number, number] = [44280, 44283];
const RANGE = [44295, 44296];

let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let manager: User;
let ownerClient: TestClient;
let readerClient: TestClient;
let managerClient: TestClient;
let updaterClient: TestClient;
let strangerClient: TestClient;
let server: Server;
let other: Server;
let primaryId: number;

const base = () => `/api/client/servers/${server.uuid_short}/network/allocations`;
const db = () => panel.ctx.db.db;
const row = (id: number) =>
  db().selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const stored = () =>
  db().selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
const mine = () =>
  db().selectFrom('allocations').selectAll().where('server_id', '=', server.id).orderBy('id').execute();
const allAllocations = () => db().selectFrom('allocations').selectAll().orderBy('id').execute();
const setServer = (values: Partial<Server>) => panel.ctx.repositories.servers.update(server.id, values);
/** This server's activity entries, oldest first. */
const activity = async () => {
  const rows = await db()
    .selectFrom('activity_logs')
    .innerJoin('activity_log_subjects as s', 's.activity_log_id', 'activity_logs.id')
    .select(['activity_logs.id', 'event', 'properties', 'actor_id'])
    .where('s.subject_type', '=', 'server')
    .where('s.subject_id', '=', server.id)
    .orderBy('activity_logs.id')
    .execute();
  const out = [];
  for (const r of rows) {
    const subjects = await db()
      .selectFrom('activity_log_subjects')
      .select(['subject_type', 'subject_id'])
      .where('activity_log_id', '=', r.id)
      .orderBy('subject_type')
      .execute();
    out.push({
      event: r.event,
      actor: r.actor_id,
      properties: JSON.parse(r.properties) as unknown,
      subjects: subjects.map((s) => `${s.subject_type}:${s.subject_id}`),
    });
  }
  return out;
};
/** A free allocation of the node given to the server directly. */
async function giveAllocation(): Promise<Allocation> {
  const free = await db()
    .selectFrom('allocations')
    .selectAll()
    .where('server_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db().updateTable('allocations').set({ server_id: server.id }).where('id', '=', free.id).execute();
  return { ...free, server_id: server.id };
}
const attributes = (a: Allocation, isDefault: boolean, notes = a.notes) => ({
  id: a.id,
  ip: a.ip,
  ip_alias: a.ip_alias,
  port: a.port,
  notes,
  is_default: isDefault,
});
const error = (status: number, code: string, detail: string) => ({
  errors: [{ code, status: String(status), detail }],
});
const FORBIDDEN = error(403, 'AccessDeniedHttpException', 'This action is unauthorized.');
const NOT_FOUND = error(
  404,
  'NotFoundHttpException',
  'The requested resource could not be found on the server.',
);

beforeAll(async () => {
  panel = await startTestPanel(clientAllocationsEnv(RANGE));
  ({ node, egg } = await nodeAndEgg(panel.ctx, NODE_PORTS));
  owner = await panel.createUser({ username: 'owner' });
  const reader = await panel.createUser({ username: 'reader' });
  manager = await panel.createUser({ username: 'manager' });
  const updater = await panel.createUser({ username: 'updater' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id, { allocation_limit: 3 });
  other = await serverRow(panel.ctx, node, egg, stranger.id);
  primaryId = server.allocation_id;
  await addSubuser(panel.ctx, server, reader, ['allocation.read']);
  await addSubuser(panel.ctx, server, manager, [
    'allocation.read',
    'allocation.create',
    'allocation.update',
    'allocation.delete',
  ]);
  await addSubuser(panel.ctx, server, updater, ['allocation.update']);
  ownerClient = await panel.signedIn(owner);
  updaterClient = await panel.signedIn(updater);
  readerClient = await panel.signedIn(reader);
  managerClient = await panel.signedIn(manager);
  strangerClient = await panel.signedIn(stranger);
});
afterAll(async () => {
  await panel.close();
});
beforeEach(async () => {
  // Back to one allocation (the primary, without notes), limit 3, nothing made from the range.
  await db()
    .updateTable('allocations')
    .set({ server_id: null, notes: null })
    .where('server_id', '=', server.id)
    .where('id', '!=', primaryId)
    .execute();
  await db().updateTable('allocations').set({ notes: null }).where('id', '=', primaryId).execute();
  await db().deleteFrom('allocations').where('port', '>=', RANGE[0]!).execute();
  await setServer({ allocation_id: primaryId, allocation_limit: 3, status: null });
  await db().deleteFrom('activity_log_subjects').execute();
  await db().deleteFrom('activity_logs').execute();
});

describe('GET /network/allocations', () => {
  it('lists every allocation of the server in id order, the primary marked, with notes', async () => {
    const second = await giveAllocation();
    await db().updateTable('allocations').set({ notes: 'voice chat' }).where('id', '=', second.id).execute();
    const primary = await row(primaryId);
    for (const client of [ownerClient, readerClient]) {
      const res = await client.get(base());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        object: 'list',
        data: [
          { object: 'allocation', attributes: attributes(primary, true) },
          { object: 'allocation', attributes: attributes(second, false, 'voice chat') },
        ],
      });
    }
    expect(primary).toMatchObject({ ip: '127.0.0.1', port: NODE_PORTS[0] });
  });

  it('refuses a subuser without allocation.read with 403', async () => {
    const res = await updaterClient.get(base());
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('answers 404 to users with no relation to the server and to unknown servers', async () => {
    const res = await strangerClient.get(base());
    expect(res.status).toBe(404);
    expect(res.body).toEqual(
      error(404, 'NotFoundHttpException', 'The requested resource does not exist on this server.'),
    );
    const unknown = await ownerClient.get('/api/client/servers/00000000/network/allocations');
    expect(unknown.status).toBe(404);
    expect(await new TestClient(panel.url).get(base()).then((r) => r.status)).toBe(401);
  });
});

describe('POST /network/allocations', () => {
  it('gives the server a free allocation on its primary IP, then makes new ports in the range, then refuses', async () => {
    await setServer({ allocation_limit: 10 });
    const freeBefore = (await allAllocations()).filter((a) => a.server_id === null).map((a) => a.port);
    expect(freeBefore).toHaveLength(2);
    const ports: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await managerClient.post(base());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.object).toBe('allocation');
      // The local node's allocations carry the alias localhost; new ones get the primary's.
      expect(res.body.attributes).toMatchObject({
        ip: '127.0.0.1',
        ip_alias: 'localhost',
        notes: null,
        is_default: false,
      });
      const created = await row(res.body.attributes.id);
      expect(created).toMatchObject({
        server_id: server.id,
        node_id: node.id,
        port: res.body.attributes.port,
      });
      ports.push(created.port);
    }
    // The node's free ones first (in either order), then both ports of the range.
    expect(ports.slice(0, 2).sort()).toEqual([...freeBefore].sort());
    expect(ports.slice(2).sort()).toEqual(RANGE);
    expect((await mine()).map((a) => a.port).sort()).toEqual([NODE_PORTS[0], ...ports].sort());

    const full = await managerClient.post(base());
    expect(full.status).toBe(400);
    expect(full.body).toEqual(
      error(
        400,
        'NoAutoAllocationSpaceAvailableException',
        'Cannot assign additional allocation: no more space available on node.',
      ),
    );
    expect(await mine()).toHaveLength(5);
    const events = await activity();
    expect(events.map((e) => e.event)).toEqual(Array(4).fill('server:allocation.create'));
    expect(events[2]).toMatchObject({
      properties: { allocation: `127.0.0.1:${ports[2]}` },
      subjects: expect.arrayContaining([`server:${server.id}`]) as unknown,
    });
    expect(events[0]?.subjects).toHaveLength(2);
  });

  it('gives a new port the alias of the primary allocation', async () => {
    await setServer({ allocation_limit: 10 });
    const { ip_alias: alias } = await row(primaryId);
    await db()
      .updateTable('allocations')
      .set({ ip_alias: 'play.example.com' })
      .where('id', '=', primaryId)
      .execute();
    // The node's free ones are taken by the other server, so a port of the range is made.
    await db()
      .updateTable('allocations')
      .set({ server_id: other.id })
      .where('server_id', 'is', null)
      .execute();
    try {
      const res = await ownerClient.post(base());
      expect(res.status).toBe(200);
      expect(res.body.attributes).toMatchObject({ ip: '127.0.0.1', ip_alias: 'play.example.com' });
      expect(RANGE).toContain(res.body.attributes.port);
    } finally {
      await db().updateTable('allocations').set({ ip_alias: alias }).where('id', '=', primaryId).execute();
      await db()
        .updateTable('allocations')
        .set({ server_id: null })
        .where('server_id', '=', other.id)
        .where('id', '!=', other.allocation_id)
        .execute();
    }
  });

  it('refuses once the limit is reached, and when no limit is set (0 and null), changing nothing', async () => {
    await giveAllocation();
    await setServer({ allocation_limit: 2 });
    for (const limit of [2, 1, 0, null]) {
      await setServer({ allocation_limit: limit });
      const res = await ownerClient.post(base());
      expect(res.status, String(limit)).toBe(400);
      expect(res.body).toEqual(
        error(
          400,
          'DisplayException',
          'Cannot assign additional allocations to this server: limit has been reached.',
        ),
      );
    }
    expect(await mine()).toHaveLength(2);
    expect(await activity()).toEqual([]);
  });

  it('refuses a subuser without allocation.create with 403', async () => {
    const res = await readerClient.post(base());
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect(await mine()).toHaveLength(1);
    expect(await activity()).toEqual([]);
  });
});

describe('POST /network/allocations/{allocation} (notes)', () => {
  it('stores the notes and logs old and new only when they change', async () => {
    const second = await giveAllocation();
    const res = await managerClient.post(`${base()}/${second.id}`, { notes: '  Voice server  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'allocation', attributes: attributes(second, false, 'Voice server') });
    expect((await row(second.id)).notes).toBe('Voice server');
    expect((await managerClient.post(`${base()}/${second.id}`, { notes: 'Voice server' })).status).toBe(200);
    // Empty or null clears them.
    const cleared = await ownerClient.post(`${base()}/${primaryId}`, { notes: 'Game' });
    expect(cleared.body.attributes).toMatchObject({ notes: 'Game', is_default: true });
    for (const notes of ['', null]) {
      const again = await ownerClient.post(`${base()}/${second.id}`, { notes });
      expect(again.status).toBe(200);
      expect(again.body.attributes.notes).toBeNull();
    }
    expect((await row(second.id)).notes).toBeNull();
    const address = `127.0.0.1:${second.port}`;
    expect((await activity()).map(({ event, properties }) => ({ event, properties }))).toEqual([
      {
        event: 'server:allocation.notes',
        properties: { allocation: address, old: null, new: 'Voice server' },
      },
      {
        event: 'server:allocation.notes',
        properties: { allocation: `127.0.0.1:${NODE_PORTS[0]}`, old: null, new: 'Game' },
      },
      {
        event: 'server:allocation.notes',
        properties: { allocation: address, old: 'Voice server', new: null },
      },
    ]);
  });

  it('accepts 256 characters and answers 422 for longer, missing or non-string notes', async () => {
    const second = await giveAllocation();
    const long = 'é'.repeat(256);
    expect((await ownerClient.post(`${base()}/${second.id}`, { notes: long })).status).toBe(200);
    expect((await row(second.id)).notes).toBe(long);
    const cases: [unknown, string, string][] = [
      [{ notes: 'x'.repeat(257) }, 'The notes may not be greater than 256 characters.', 'max'],
      [{}, 'The notes field must be present.', 'present'],
      [{ notes: 42 }, 'The notes must be a string.', 'string'],
    ];
    for (const [body, detail, rule] of cases) {
      const res = await ownerClient.post(`${base()}/${second.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({
        errors: [
          { code: 'ValidationException', status: '422', detail, meta: { source_field: 'notes', rule } },
        ],
      });
    }
    expect((await row(second.id)).notes).toBe(long);
    expect(await activity()).toHaveLength(1);
  });

  it('refuses a subuser without allocation.update with 403, before validation', async () => {
    const second = await giveAllocation();
    for (const body of [{ notes: 'mine' }, { notes: 7 }]) {
      const res = await readerClient.post(`${base()}/${second.id}`, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await row(second.id)).notes).toBeNull();
    expect(await activity()).toEqual([]);
  });
});

describe('POST /network/allocations/{allocation}/primary', () => {
  it('makes the allocation primary and logs it', async () => {
    const second = await giveAllocation();
    const res = await managerClient.post(`${base()}/${second.id}/primary`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'allocation', attributes: attributes(second, true) });
    expect((await stored()).allocation_id).toBe(second.id);
    const list = await ownerClient.get(base());
    expect(
      list.body.data.map((d: { attributes: { is_default: boolean } }) => d.attributes.is_default),
    ).toEqual([false, true]);
    // The client server object agrees.
    const details = await ownerClient.get(`/api/client/servers/${server.uuid_short}`);
    expect(
      details.body.attributes.relationships.allocations.data.find(
        (d: { attributes: { is_default: boolean } }) => d.attributes.is_default,
      ).attributes.id,
    ).toBe(second.id);
    expect(await activity()).toEqual([
      {
        event: 'server:allocation.primary',
        actor: manager.id,
        properties: { allocation: `127.0.0.1:${second.port}` },
        subjects: [`allocation:${second.id}`, `server:${server.id}`],
      },
    ]);
  });

  it('refuses a subuser without allocation.update with 403', async () => {
    const second = await giveAllocation();
    const res = await readerClient.post(`${base()}/${second.id}/primary`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await stored()).allocation_id).toBe(primaryId);
    expect(await activity()).toEqual([]);
  });
});

describe('DELETE /network/allocations/{allocation}', () => {
  it('gives the allocation back to the node without its notes (the row stays), 204', async () => {
    const second = await giveAllocation();
    await db().updateTable('allocations').set({ notes: 'old' }).where('id', '=', second.id).execute();
    const res = await managerClient.delete(`${base()}/${second.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await row(second.id)).toMatchObject({ server_id: null, notes: null, port: second.port });
    expect((await mine()).map((a) => a.id)).toEqual([primaryId]);
    expect((await activity()).map(({ event, properties }) => ({ event, properties }))).toEqual([
      { event: 'server:allocation.delete', properties: { allocation: `127.0.0.1:${second.port}` } },
    ]);
  });

  it('refuses without an allocation limit (0 or null) and for the primary allocation, changing nothing', async () => {
    const second = await giveAllocation();
    for (const limit of [0, null]) {
      await setServer({ allocation_limit: limit });
      const res = await ownerClient.delete(`${base()}/${second.id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        error(
          400,
          'DisplayException',
          'You cannot delete allocations for this server: no allocation limit is set.',
        ),
      );
    }
    await setServer({ allocation_limit: 3 });
    const primary = await ownerClient.delete(`${base()}/${primaryId}`);
    expect(primary.status).toBe(400);
    expect(primary.body).toEqual(
      error(400, 'DisplayException', 'You cannot delete the primary allocation for this server.'),
    );
    expect((await mine()).map((a) => a.id)).toEqual([primaryId, second.id]);
    expect(await activity()).toEqual([]);
  });

  it('refuses a subuser without allocation.delete with 403', async () => {
    const second = await giveAllocation();
    const res = await readerClient.delete(`${base()}/${second.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await row(second.id)).server_id).toBe(server.id);
  });
});

describe('{allocation} and the server state', () => {
  it("answers 404 for another server's allocation, a free one, an unknown id and a non-number, before 403", async () => {
    const free = await db()
      .selectFrom('allocations')
      .selectAll()
      .where('server_id', 'is', null)
      .executeTakeFirstOrThrow();
    const before = await allAllocations();
    for (const id of [String(other.allocation_id), String(free.id), '999999', '99999999999', 'abc', '1e1']) {
      for (const client of [ownerClient, readerClient]) {
        const requests = [
          client.post(`${base()}/${id}`, { notes: 'taken' }),
          client.post(`${base()}/${id}/primary`),
          client.delete(`${base()}/${id}`),
        ];
        for (const res of await Promise.all(requests)) {
          expect(res.status, id).toBe(404);
          expect(res.body).toEqual(NOT_FOUND);
        }
      }
    }
    expect(await allAllocations()).toEqual(before);
    expect((await stored()).allocation_id).toBe(primaryId);
    expect(await activity()).toEqual([]);
  });

  it('answers 409 on every route while the server is suspended, changing nothing', async () => {
    const second = await giveAllocation();
    await setServer({ status: 'suspended' });
    const before = await allAllocations();
    const responses = await Promise.all([
      ownerClient.get(base()),
      ownerClient.post(base()),
      ownerClient.post(`${base()}/${second.id}`, { notes: 'x' }),
      ownerClient.post(`${base()}/${second.id}/primary`),
      ownerClient.delete(`${base()}/${second.id}`),
      readerClient.delete(`${base()}/${second.id}`),
      ownerClient.delete(`${base()}/${other.allocation_id}`),
    ]);
    for (const res of responses) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(
        error(
          409,
          'ServerStateConflictException',
          'This server is currently suspended and the functionality requested is unavailable.',
        ),
      );
    }
    expect(await allAllocations()).toEqual(before);
    expect((await stored()).allocation_id).toBe(primaryId);
    expect(await activity()).toEqual([]);
  });
});

describe('with client allocations disabled (the default)', () => {
  let plain: TestPanel;
  afterAll(async () => {
    await plain?.close();
  });

  it('refuses to add one, after the limit check', async () => {
    plain = await startTestPanel();
    const local = await nodeAndEgg(plain.ctx, [44290, 44292]);
    const user = await plain.createUser({ username: 'plainowner' });
    const s = await serverRow(plain.ctx, local.node, local.egg, user.id, { allocation_limit: 2 });
    const client = await plain.signedIn(user);
    const url = `/api/client/servers/${s.uuid_short}/network/allocations`;
    const res = await client.post(url);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      error(
        400,
        'AutoAllocationNotEnabledException',
        'Server auto-allocation is not enabled for this instance.',
      ),
    );
    await plain.ctx.repositories.servers.update(s.id, { allocation_limit: 1 });
    expect((await client.post(url)).body.errors[0].detail).toBe(
      'Cannot assign additional allocations to this server: limit has been reached.',
    );
    const assigned = await plain.ctx.db.db
      .selectFrom('allocations')
      .select('id')
      .where('server_id', '=', s.id)
      .execute();
    expect(assigned).toHaveLength(1);
  });
});

describe('other methods', () => {
  it('answers a method the routes do not take with 405 and the methods they do', async () => {
    const second = await giveAllocation();
    const cases: [string, string, string][] = [
      ['PUT', base(), 'GET, HEAD, POST'],
      ['DELETE', base(), 'GET, HEAD, POST'],
      ['PATCH', `${base()}/${second.id}`, 'POST, DELETE'],
      ['GET', `${base()}/${second.id}/primary`, 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await ownerClient.request(method, path, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.errors[0].code).toBe('MethodNotAllowedHttpException');
    }
    expect((await mine()).map((a) => a.id)).toEqual([primaryId, second.id]);
    expect(await activity()).toEqual([]);
  });
});
