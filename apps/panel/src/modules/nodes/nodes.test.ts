import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { decrypt } from '../../lib/crypto.ts';
import { expectError, firstError, type Res, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import {
  applicationClient,
  clientKeyClient,
  FULL,
  insertNode,
  insertServer,
  READ,
  UTC_ATOM,
} from '../application/testing.ts';

let panel: TestPanel;
let admin: User;
let api: TestClient;
let locationId: number;

const NODE_KEYS = [
  'id',
  'uuid',
  'public',
  'name',
  'description',
  'location_id',
  'fqdn',
  'scheme',
  'behind_proxy',
  'maintenance_mode',
  'memory',
  'memory_overallocate',
  'disk',
  'disk_overallocate',
  'upload_size',
  'daemon_listen',
  'daemon_sftp',
  'daemon_base',
  'created_at',
  'updated_at',
  'allocated_resources',
];

const patch = (c: TestClient, path: string, b: unknown) => c.request('PATCH', path, b);
const details = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );

let seq = 0;
function nodeBody(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    name: `Node ${seq}`,
    location_id: locationId,
    fqdn: `node${seq}.example.com`,
    scheme: 'https',
    memory: 2048,
    memory_overallocate: 0,
    disk: 10240,
    disk_overallocate: 0,
    daemon_listen: 8080,
    daemon_sftp: 2022,
    ...overrides,
  };
}

async function createNode(overrides: Record<string, unknown> = {}) {
  const res = await api.post('/api/application/nodes', nodeBody(overrides));
  expect(res.status).toBe(201);
  return res.body.attributes as Record<string, any> & { id: number };
}

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_nodes: FULL, r_locations: FULL, r_allocations: FULL });
  locationId = (await api.post('/api/application/locations', { short: 'main' })).body.attributes.id;
});
afterAll(async () => {
  await panel.close();
});

describe('access', () => {
  it('401 without credentials, 403 for non-admins, keys without r_nodes and read-only writes', async () => {
    expect((await new TestClient(panel.url).get('/api/application/nodes')).status).toBe(401);
    const user = await panel.createUser();
    expect(
      (await (await applicationClient(panel, user, { r_nodes: FULL })).get('/api/application/nodes')).status,
    ).toBe(403);
    const none = await applicationClient(panel, admin, { r_locations: FULL });
    const node = await createNode();
    for (const path of [
      '/api/application/nodes',
      `/api/application/nodes/${node.id}`,
      `/api/application/nodes/${node.id}/configuration`,
      '/api/application/nodes/deployable?memory=1&disk=1',
    ]) {
      const res = await none.get(path);
      expect(res.status, path).toBe(403);
      expect(firstError(res).detail).toBe('This action is unauthorized.');
    }
    const readOnly = await applicationClient(panel, admin, { r_nodes: READ });
    expect((await readOnly.get(`/api/application/nodes/${node.id}`)).status).toBe(200);
    for (const res of [
      await readOnly.post('/api/application/nodes', nodeBody()),
      await patch(readOnly, `/api/application/nodes/${node.id}`, nodeBody()),
      await readOnly.delete(`/api/application/nodes/${node.id}`),
    ]) {
      expect(res.status).toBe(403);
    }
  });
});

describe('POST /api/application/nodes', () => {
  it('creates a node with defaults, a uuid and an encrypted 64-character daemon token', async () => {
    const res = await api.post('/api/application/nodes', nodeBody({ name: 'Alpha node' }));
    expect(res.status).toBe(201);
    expect(res.body.object).toBe('node');
    expect(Object.keys(res.body.attributes)).toEqual(NODE_KEYS);
    const a = res.body.attributes;
    expect(a).toMatchObject({
      name: 'Alpha node',
      description: null,
      location_id: locationId,
      public: true,
      behind_proxy: false,
      maintenance_mode: false,
      upload_size: 100,
      daemon_base: '/var/lib/pterodactyl/volumes',
      allocated_resources: { memory: 0, disk: 0 },
    });
    expect(a.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u);
    expect(a.created_at).toMatch(UTC_ATOM);
    expect(res.body.meta).toEqual({ resource: `${panel.url}/api/application/nodes/${a.id}` });
    expect(res.text).not.toContain('daemon_token');

    const row = await panel.ctx.db.db
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.daemon_token_id).toMatch(/^[A-Za-z0-9]{16}$/u);
    const token = decrypt(panel.ctx.config.appKey, row.daemon_token);
    expect(token).toMatch(/^[A-Za-z0-9]{64}$/u);
    expect(row.daemon_token).not.toContain(token);
  });

  it('accepts the optional fields', async () => {
    const a = await createNode({
      public: false,
      behind_proxy: true,
      maintenance_mode: 1,
      upload_size: 512,
      daemon_base: '/srv/daemon-data',
      scheme: 'http',
      memory: '4096',
    });
    expect(a).toMatchObject({
      public: false,
      behind_proxy: true,
      maintenance_mode: true,
      upload_size: 512,
      daemon_base: '/srv/daemon-data',
      scheme: 'http',
      memory: 4096,
    });
  });

  it('reports every missing required field with the reference labels', async () => {
    const res = await api.post('/api/application/nodes', {});
    expect(res.status).toBe(422);
    expect(details(res)).toEqual([
      'name|required|The name field is required.',
      'location_id|required|The Location field is required.',
      'fqdn|required|The fqdn field is required.',
      'scheme|required|The scheme field is required.',
      'memory|required|The memory field is required.',
      'memory_overallocate|required|The memory overallocate field is required.',
      'disk|required|The disk field is required.',
      'disk_overallocate|required|The disk overallocate field is required.',
      'daemon_listen|required|The daemon listen field is required.',
      'daemon_sftp|required|The daemon sftp field is required.',
    ]);
  });

  it('reports each invalid field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'bad/name' }, 'name|regex|The name format is invalid.'],
      [{ name: 'x'.repeat(101) }, 'name|regex|The name format is invalid.'],
      [{ location_id: 999999 }, 'location_id|exists|The selected Location is invalid.'],
      [{ location_id: 99999999999 }, 'location_id|exists|The selected Location is invalid.'],
      [{ location_id: 'abc' }, 'location_id|integer|The Location must be an integer.'],
      [{ scheme: 'ftp' }, 'scheme|in|The selected scheme is invalid.'],
      [{ public: 'yes' }, 'public|boolean|The Node Visibility field must be true or false.'],
      [{ behind_proxy: 'no' }, 'behind_proxy|boolean|The behind proxy field must be true or false.'],
      [{ memory: 0 }, 'memory|min|The memory must be at least 1.'],
      [{ memory: 'lots' }, 'memory|numeric|The memory must be a number.'],
      [{ disk: 3000000000 }, 'disk|max|The disk may not be greater than 2147483647.'],
      [{ memory_overallocate: -2 }, 'memory_overallocate|min|The memory overallocate must be at least -1.'],
      [{ disk: 0 }, 'disk|min|The disk must be at least 1.'],
      [{ disk_overallocate: -5 }, 'disk_overallocate|min|The disk overallocate must be at least -1.'],
      [{ upload_size: 1025 }, 'upload_size|between|The File Upload Size Limit must be between 1 and 1024.'],
      [{ upload_size: 1.5 }, 'upload_size|integer|The File Upload Size Limit must be an integer.'],
      [{ daemon_listen: 70000 }, 'daemon_listen|between|The daemon listen must be between 1 and 65535.'],
      [{ daemon_sftp: 0 }, 'daemon_sftp|between|The daemon sftp must be between 1 and 65535.'],
      [{ daemon_base: 'relative/path' }, 'daemon_base|regex|The Daemon Base Path format is invalid.'],
      [{ daemon_base: '' }, 'daemon_base|required|The Daemon Base Path field is required.'],
    ];
    for (const [overrides, expected] of cases) {
      const res = await api.post('/api/application/nodes', nodeBody(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(details(res)).toEqual([expected]);
    }
  });
});

describe('GET /api/application/nodes', () => {
  it('lists with pagination, filters and sorts', async () => {
    const small = await createNode({ name: 'Filter small', memory: 1, fqdn: 'small.filter.test' });
    const big = await createNode({ name: 'Filter big', memory: 999999, fqdn: 'big.filter.test' });
    const res = await api.get('/api/application/nodes?filter[name]=filter%20');
    expect(res.status).toBe(200);
    expect(res.body.data.map((n: any) => n.object)).toEqual(['node', 'node']);
    expect(Object.keys(res.body.data[0].attributes)).toEqual(NODE_KEYS);
    expect(res.body.meta.pagination).toMatchObject({ total: 2, count: 2, per_page: 50, current_page: 1 });
    const byFqdn = await api.get('/api/application/nodes?filter[fqdn]=BIG.filter');
    expect(byFqdn.body.data.map((n: any) => n.attributes.id)).toEqual([big.id]);
    const byUuid = await api.get(`/api/application/nodes?filter[uuid]=${small.uuid}`);
    expect(byUuid.body.data.map((n: any) => n.attributes.id)).toEqual([small.id]);
    const row = await panel.ctx.db.db
      .selectFrom('nodes')
      .select('daemon_token_id')
      .where('id', '=', big.id)
      .executeTakeFirstOrThrow();
    const byToken = await api.get(`/api/application/nodes?filter[daemon_token_id]=${row.daemon_token_id}`);
    expect(byToken.body.data.map((n: any) => n.attributes.id)).toEqual([big.id]);
    const byMemory = await api.get('/api/application/nodes?sort=-memory');
    expect(byMemory.body.data[0].attributes.id).toBe(big.id);
    expect((await api.get('/api/application/nodes?sort=memory')).body.data[0].attributes.id).toBe(small.id);
    expect(firstError(await api.get('/api/application/nodes?sort=fqdn')).detail).toBe(
      'Requested sort(s) `fqdn` is not allowed. Allowed sort(s) are `id, uuid, memory, disk, name`.',
    );
    expect(firstError(await api.get('/api/application/nodes?filter[scheme]=https')).detail).toBe(
      'Requested filter(s) `scheme` are not allowed. Allowed filter(s) are `uuid, name, fqdn, daemon_token_id`.',
    );
    const paged = await api.get('/api/application/nodes?per_page=1');
    expect(paged.body.meta.pagination.links.next).toBe(`${panel.url}/api/application/nodes?page=2`);
  });

  it('sums the memory and disk of the servers on a node', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const owner = await panel.createUser();
    await insertServer(panel, { ownerId: owner.id, nodeId, allocationId, memory: 512, disk: 1000 });
    const second = await panel.ctx.db.db
      .insertInto('allocations')
      .values({
        node_id: nodeId,
        ip: '10.0.0.1',
        port: 30000,
        ip_alias: null,
        server_id: null,
        notes: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertServer(panel, { ownerId: owner.id, nodeId, allocationId: second.id, memory: 256, disk: 24 });
    const res = await api.get(`/api/application/nodes/${nodeId}`);
    expect(res.body.attributes.allocated_resources).toEqual({ memory: 768, disk: 1024 });
  });

  it('includes allocations and location by the key’s ACL', async () => {
    const { nodeId, locationId: loc, allocationId } = await insertNode(panel);
    const res = await api.get(`/api/application/nodes/${nodeId}?include=allocations,location`);
    const rel = res.body.attributes.relationships;
    expect(rel.allocations.object).toBe('list');
    expect(rel.allocations.data).toEqual([
      {
        object: 'allocation',
        attributes: {
          id: allocationId,
          ip: '10.0.0.1',
          alias: null,
          port: 25565,
          notes: null,
          assigned: false,
        },
      },
    ]);
    expect(rel.location.object).toBe('location');
    expect(rel.location.attributes.id).toBe(loc);
    const limited = await applicationClient(panel, admin, { r_nodes: READ });
    const denied = await limited.get(`/api/application/nodes?include=allocations,location`);
    expect(denied.body.data[0].attributes.relationships).toEqual({
      allocations: { object: 'null_resource', attributes: null },
      location: { object: 'null_resource', attributes: null },
    });
  });

  it('404s unknown ids', async () => {
    expect(firstError(await api.get('/api/application/nodes/987654')).detail).toBe(
      'The requested resource could not be found on the server.',
    );
    expect((await api.get('/api/application/nodes/987654/configuration')).status).toBe(404);
  });
});

describe('PATCH /api/application/nodes/{id}', () => {
  // Issue 23 item 6, the same class as a database host's password: the panel sends the node token
  // to the node's address on every daemon call, so a key that could move the address to a listener
  // of its own would collect the token the configuration route no longer gives it.
  it('no API key moves a node’s daemon address (fqdn, scheme, port): 403, unchanged; a session does', async () => {
    const node = await createNode();
    const keep = { fqdn: node.fqdn, scheme: node.scheme, daemon_listen: node.daemon_listen };
    const row = () =>
      panel.ctx.db.db.selectFrom('nodes').selectAll().where('id', '=', node.id).executeTakeFirstOrThrow();
    const before = await row();
    for (const key of [api, await clientKeyClient(panel, admin)]) {
      for (const move of [{ fqdn: 'listener.example.net' }, { scheme: 'http' }, { daemon_listen: 9999 }]) {
        const res = await patch(key, `/api/application/nodes/${node.id}`, nodeBody({ ...keep, ...move }));
        expect(res.status, JSON.stringify(move)).toBe(403);
        expect(firstError(res).detail).toBe('This action is unauthorized.');
      }
    }
    expect(await row()).toEqual(before);
    const renamed = await patch(
      api,
      `/api/application/nodes/${node.id}`,
      nodeBody({ ...keep, name: 'Same place' }),
    );
    expect(renamed.status, renamed.text).toBe(200);
    const moved = await patch(
      await panel.signedIn(admin),
      `/api/application/nodes/${node.id}`,
      nodeBody({ ...keep, fqdn: 'moved.example.com' }),
    );
    expect(moved.status, moved.text).toBe(200);
    expect((await row()).fqdn).toBe('moved.example.com');
  });

  it('updates, keeps omitted optional fields, re-validates required ones', async () => {
    const node = await createNode({ upload_size: 300, public: false });
    const body = nodeBody({ fqdn: node.fqdn, name: 'Renamed', memory: 8192, maintenance_mode: true });
    const res = await patch(api, `/api/application/nodes/${node.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body.attributes).toMatchObject({
      id: node.id,
      uuid: node.uuid,
      name: 'Renamed',
      memory: 8192,
      maintenance_mode: true,
      upload_size: 300,
      public: false,
    });
    const missing = await patch(api, `/api/application/nodes/${node.id}`, { name: 'Only' });
    expect(missing.status).toBe(422);
    expect(details(missing)).toHaveLength(9);
    expect((await patch(api, '/api/application/nodes/999999', body)).status).toBe(404);
  });

  it('regenerates the daemon credentials on reset_secret', async () => {
    const node = await createNode();
    const session = await panel.signedIn(admin);
    const before = (await session.get(`/api/application/nodes/${node.id}/configuration`)).body;
    await patch(api, `/api/application/nodes/${node.id}`, nodeBody({ fqdn: node.fqdn, reset_secret: false }));
    const same = (await session.get(`/api/application/nodes/${node.id}/configuration`)).body;
    expect([same.token_id, same.token]).toEqual([before.token_id, before.token]);
    expect(
      (
        await patch(
          api,
          `/api/application/nodes/${node.id}`,
          nodeBody({ fqdn: node.fqdn, reset_secret: true }),
        )
      ).status,
    ).toBe(200);
    const after = (await session.get(`/api/application/nodes/${node.id}/configuration`)).body;
    expect(after.token_id).not.toBe(before.token_id);
    expect(after.token).not.toBe(before.token);
    expect(after.token).toMatch(/^[A-Za-z0-9]{64}$/u);
  });
});

describe('DELETE /api/application/nodes/{id}', () => {
  it('deletes a node without servers, with its allocations', async () => {
    const { nodeId } = await insertNode(panel);
    const res = await api.delete(`/api/application/nodes/${nodeId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/api/application/nodes/${nodeId}`)).status).toBe(404);
    const left = await panel.ctx.db.db
      .selectFrom('allocations')
      .select('id')
      .where('node_id', '=', nodeId)
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses a node with servers', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const owner = await panel.createUser();
    await insertServer(panel, { ownerId: owner.id, nodeId, allocationId });
    const res = await api.delete(`/api/application/nodes/${nodeId}`);
    expectError(
      res,
      400,
      'HasActiveServersException',
      'A node must have no servers linked to it in order to be deleted.',
    );
  });
});

describe('GET /api/application/nodes/{id}/configuration', () => {
  // Issue 23 item 6: the node token is the daemon's bearer secret and the key that signs its JWTs:
  // whoever holds it controls every server of the node. No API key, not even one with full r_nodes,
  // gets it; a root admin's session does (node setup tokens are session-only for the same reason).
  it('leaves the node token out for every API key; a session gets it', async () => {
    const node = await createNode();
    const row = await panel.ctx.db.db
      .selectFrom('nodes')
      .select('daemon_token')
      .where('id', '=', node.id)
      .executeTakeFirstOrThrow();
    const token = decrypt(panel.ctx.config.appKey, row.daemon_token);
    const path = `/api/application/nodes/${node.id}/configuration`;
    const full = await (await panel.signedIn(admin)).get(path);
    expect(full.status, full.text).toBe(200);
    expect(full.body.token).toBe(token);
    const { token: _left, ...withoutToken } = full.body as Record<string, unknown>;
    for (const key of [
      api,
      await applicationClient(panel, admin, { r_nodes: READ }),
      await clientKeyClient(panel, admin),
    ]) {
      const res = await key.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(withoutToken);
      expect(res.text).not.toContain(token);
    }
  });

  it('answers a root admin’s session the daemon configuration as raw JSON with the plain token', async () => {
    const node = await createNode({
      fqdn: 'Wings.Example.COM',
      daemon_listen: 8443,
      daemon_sftp: 2222,
      upload_size: 256,
    });
    const res = await (await panel.signedIn(admin)).get(`/api/application/nodes/${node.id}/configuration`);
    expect(res.status).toBe(200);
    const row = await panel.ctx.db.db
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', node.id)
      .executeTakeFirstOrThrow();
    expect(res.body).toEqual({
      debug: false,
      uuid: node.uuid,
      token_id: row.daemon_token_id,
      token: decrypt(panel.ctx.config.appKey, row.daemon_token),
      api: {
        host: '0.0.0.0',
        port: 8443,
        ssl: {
          enabled: true,
          cert: '/etc/letsencrypt/live/wings.example.com/fullchain.pem',
          key: '/etc/letsencrypt/live/wings.example.com/privkey.pem',
        },
        upload_limit: 256,
      },
      system: { data: '/var/lib/pterodactyl/volumes', sftp: { bind_port: 2222 } },
      allowed_mounts: [],
      remote: panel.url,
    });
  });

  it('disables SSL over http and behind a proxy', async () => {
    for (const overrides of [{ scheme: 'http' }, { scheme: 'https', behind_proxy: true }]) {
      const node = await createNode(overrides);
      const res = await api.get(`/api/application/nodes/${node.id}/configuration`);
      expect(res.body.api.ssl.enabled).toBe(false);
    }
  });
});

describe('GET /api/application/nodes/deployable', () => {
  it('validates memory, disk and location_ids', async () => {
    const res = await api.get('/api/application/nodes/deployable');
    expect(res.status).toBe(422);
    expect(details(res)).toEqual([
      'memory|required|The memory field is required.',
      'disk|required|The disk field is required.',
    ]);
    expect(details(await api.get('/api/application/nodes/deployable?memory=-1&disk=x'))).toEqual([
      'memory|min|The memory must be at least 0.',
      'disk|integer|The disk must be an integer.',
    ]);
    expect(
      details(await api.get('/api/application/nodes/deployable?memory=1&disk=1&location_ids[]=abc')),
    ).toEqual(['location_ids.0|integer|The location ids.0 must be an integer.']);
  });

  it('finds public nodes with room, in the given locations, without sum_* keys', async () => {
    const loc = (await api.post('/api/application/locations', { short: 'deploy-here' })).body.attributes.id;
    const other = (await api.post('/api/application/locations', { short: 'deploy-else' })).body.attributes.id;
    const roomy = await createNode({ location_id: loc, memory: 4096, disk: 4096 });
    const over = await createNode({ location_id: loc, memory: 1000, memory_overallocate: 100, disk: 4096 });
    await createNode({ location_id: loc, memory: 100000, disk: 100000, public: false });
    await createNode({ location_id: loc, memory: 100000, disk: 100000, maintenance_mode: true });
    const elsewhere = await createNode({ location_id: other, memory: 100000, disk: 100000 });

    const res = await api.get(`/api/application/nodes/deployable?memory=1500&disk=100&location_ids[]=${loc}`);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.meta).toBeUndefined();
    expect(res.body.data.map((n: any) => n.attributes.id)).toEqual([roomy.id, over.id]);
    expect(Object.keys(res.body.data[0].attributes)).toEqual(NODE_KEYS);

    const big = await api.get(`/api/application/nodes/deployable?memory=2500&disk=100&location_ids[]=${loc}`);
    expect(big.body.data.map((n: any) => n.attributes.id)).toEqual([roomy.id]);

    const both = await api.get(
      `/api/application/nodes/deployable?memory=50000&disk=1&location_ids[]=${loc}&location_ids[]=${other}`,
    );
    expect(both.body.data.map((n: any) => n.attributes.id)).toEqual([elsewhere.id]);

    const paged = await api.get(
      `/api/application/nodes/deployable?memory=1&disk=1&location_ids[]=${loc}&page=1`,
    );
    expect(paged.body.meta.pagination).toMatchObject({ total: 2, count: 2, per_page: 50, current_page: 1 });
  });

  it('answers NoViableNodeException when nothing fits', async () => {
    const huge = await api.get(
      '/api/application/nodes/deployable?memory=1&disk=1&location_ids[]=99999999999',
    );
    expect(firstError(huge).code).toBe('NoViableNodeException');
    const res = await api.get('/api/application/nodes/deployable?memory=999999999&disk=1');
    expectError(
      res,
      400,
      'NoViableNodeException',
      'No nodes satisfying the requirements specified for automatic deployment could be found.',
    );
  });
});

describe('extensions: description, search, sort by name', () => {
  it('create and update set description; PATCH without it keeps it, null clears it', async () => {
    const node = await createNode({ description: 'Rack 4, Frankfurt' });
    expect(node.description).toBe('Rack 4, Frankfurt');
    const kept = await patch(
      api,
      `/api/application/nodes/${node.id}`,
      nodeBody({ fqdn: node.fqdn, name: 'Kept' }),
    );
    expect(kept.body.attributes.description).toBe('Rack 4, Frankfurt');
    const changed = await patch(
      api,
      `/api/application/nodes/${node.id}`,
      nodeBody({ fqdn: node.fqdn, description: 'Rack 5' }),
    );
    expect(changed.body.attributes.description).toBe('Rack 5');
    const cleared = await patch(
      api,
      `/api/application/nodes/${node.id}`,
      nodeBody({ fqdn: node.fqdn, description: null }),
    );
    expect(cleared.body.attributes.description).toBeNull();
  });

  it('422 for a description that is not text or too long, creating nothing', async () => {
    const before = (await api.get('/api/application/nodes')).body.meta.pagination.total;
    const long = await api.post('/api/application/nodes', nodeBody({ description: 'x'.repeat(2001) }));
    expect(details(long)).toEqual([
      'description|max|The description may not be greater than 2000 characters.',
    ]);
    const list = await api.post('/api/application/nodes', nodeBody({ description: ['x'] }));
    expect(details(list)).toEqual(['description|string|The description must be a string.']);
    expect((await api.get('/api/application/nodes')).body.meta.pagination.total).toBe(before);
  });

  it('search matches name or fqdn ignoring case; sort=name and -name order by name', async () => {
    const alpha = await createNode({ name: 'Zeta searchable', fqdn: 'a1.search.test' });
    const beta = await createNode({ name: 'Alpha other', fqdn: 'B2.SEARCH.test' });
    const byName = await api.get('/api/application/nodes?search=SEARCHABLE');
    expect(byName.body.data.map((n: any) => n.attributes.id)).toEqual([alpha.id]);
    const byFqdn = await api.get('/api/application/nodes?search=search.test&sort=name');
    expect(byFqdn.body.data.map((n: any) => n.attributes.id)).toEqual([beta.id, alpha.id]);
    const reversed = await api.get('/api/application/nodes?search=search.test&sort=-name');
    expect(reversed.body.data.map((n: any) => n.attributes.id)).toEqual([alpha.id, beta.id]);
    expect((await api.get('/api/application/nodes?search=nothing-like-this')).body.data).toEqual([]);
  });
});
