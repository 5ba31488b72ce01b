import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, type Res, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL, insertNode, insertServer, READ } from '../application/testing.ts';

let panel: TestPanel;
let admin: User;
let api: TestClient;

const ALLOCATION_KEYS = ['id', 'ip', 'alias', 'port', 'notes', 'assigned'];
const details = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );

async function pairs(nodeId: number): Promise<string[]> {
  const rows = await panel.ctx.db.db
    .selectFrom('allocations')
    .select(['ip', 'port', 'ip_alias'])
    .where('node_id', '=', nodeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => `${r.ip}:${r.port}${r.ip_alias ? `@${r.ip_alias}` : ''}`);
}

async function emptyNode(): Promise<number> {
  const { nodeId, allocationId } = await insertNode(panel);
  await panel.ctx.db.db.deleteFrom('allocations').where('id', '=', allocationId).execute();
  return nodeId;
}

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_allocations: FULL, r_nodes: READ });
});
afterAll(async () => {
  await panel.close();
});

describe('access', () => {
  it('needs r_allocations (reading to list, writing to change)', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const path = `/api/application/nodes/${nodeId}/allocations`;
    expect((await new TestClient(panel.url).get(path)).status).toBe(401);
    const user = await panel.createUser();
    expect((await (await applicationClient(panel, user, { r_allocations: FULL })).get(path)).status).toBe(
      403,
    );
    const nodesOnly = await applicationClient(panel, admin, { r_nodes: FULL });
    const denied = await nodesOnly.get(path);
    expect(denied.status).toBe(403);
    expect(firstError(denied).detail).toBe('This action is unauthorized.');
    const readOnly = await applicationClient(panel, admin, { r_allocations: READ });
    expect((await readOnly.get(path)).status).toBe(200);
    expect((await readOnly.post(path, { ip: '10.0.0.2', ports: ['30000'] })).status).toBe(403);
    expect((await readOnly.delete(`${path}/${allocationId}`)).status).toBe(403);
  });
});

describe('GET /api/application/nodes/{id}/allocations', () => {
  it('lists a node’s allocations with the application schema', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const res = await api.get(`/api/application/nodes/${nodeId}/allocations`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
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
    expect(Object.keys(res.body.data[0].attributes)).toEqual(ALLOCATION_KEYS);
    expect(res.body.meta.pagination).toMatchObject({
      total: 1,
      count: 1,
      per_page: 50,
      total_pages: 1,
      links: {},
    });
    expect((await api.get('/api/application/nodes/999999/allocations')).status).toBe(404);
  });

  it('filters by ip and port (exact), ip_alias (partial) and server_id', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    expect(
      (await api.post(path, { ip: '10.1.1.1', ports: ['27015', '27016'], alias: 'Game.Example' })).status,
    ).toBe(204);
    expect((await api.post(path, { ip: '10.1.1.10', ports: ['27015'] })).status).toBe(204);
    const list = async (query: string) =>
      (await api.get(`${path}?${query}`)).body.data.map(
        (a: any) => `${a.attributes.ip}:${a.attributes.port}`,
      );
    expect(await list('filter[ip]=10.1.1.1')).toEqual(['10.1.1.1:27015', '10.1.1.1:27016']);
    expect(await list('filter[ip]=10.1.1')).toEqual([]);
    expect(await list('filter[port]=27015')).toEqual(['10.1.1.1:27015', '10.1.1.10:27015']);
    expect(await list('filter[port]=27016,27015&filter[ip]=10.1.1.10')).toEqual(['10.1.1.10:27015']);
    expect(await list('filter[port]=abc')).toEqual([]);
    expect(await list('filter[port]=99999999999')).toEqual([]);
    expect(await list('filter[port]=abc,27016')).toEqual(['10.1.1.1:27016']);
    expect(await list('filter[ip_alias]=game.EX')).toEqual(['10.1.1.1:27015', '10.1.1.1:27016']);

    const owner = await panel.createUser();
    const [first] = (await api.get(`${path}?filter[port]=27016`)).body.data;
    const serverId = await insertServer(panel, {
      ownerId: owner.id,
      nodeId,
      allocationId: first.attributes.id,
    });
    expect(await list(`filter[server_id]=${serverId}`)).toEqual(['10.1.1.1:27016']);
    for (const unassigned of [
      'filter[server_id]=',
      'filter[server_id]=false',
      'filter[server_id]=true',
      'filter[server_id]=x',
    ]) {
      expect(await list(unassigned), unassigned).toEqual(['10.1.1.1:27015', '10.1.1.10:27015']);
    }
    const assigned = (await api.get(`${path}?filter[server_id]=${serverId}`)).body.data[0].attributes;
    expect(assigned.assigned).toBe(true);

    expect(firstError(await api.get(`${path}?filter[notes]=x`)).detail).toBe(
      'Requested filter(s) `notes` are not allowed. Allowed filter(s) are `ip, port, ip_alias, server_id`.',
    );
  });

  it('includes the node when the key may read nodes', async () => {
    const { nodeId } = await insertNode(panel);
    const path = `/api/application/nodes/${nodeId}/allocations?include=node`;
    const res = await api.get(path);
    const node = res.body.data[0].attributes.relationships.node;
    expect(node.object).toBe('node');
    expect(node.attributes.id).toBe(nodeId);
    expect(node.attributes.daemon_token).toBeUndefined();
    const noNodes = await applicationClient(panel, admin, { r_allocations: READ });
    expect((await noNodes.get(path)).body.data[0].attributes.relationships).toEqual({
      node: { object: 'null_resource', attributes: null },
    });
  });
});

describe('POST /api/application/nodes/{id}/allocations', () => {
  it('adds single ports and ranges with an alias, skipping existing pairs (204)', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    const res = await api.post(path, {
      ip: '192.0.2.5',
      alias: 'play.example.com',
      ports: ['25565', '25570-25572'],
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.post(path, { ip: '192.0.2.5', ports: ['25565-25566'] })).status).toBe(204);
    expect(await pairs(nodeId)).toEqual([
      '192.0.2.5:25565@play.example.com',
      '192.0.2.5:25570@play.example.com',
      '192.0.2.5:25571@play.example.com',
      '192.0.2.5:25572@play.example.com',
      '192.0.2.5:25566',
    ]);
  });

  it('expands CIDR blocks from /25 to /32 and resolves hostnames', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    expect((await api.post(path, { ip: '198.51.100.6/30', ports: ['2000'] })).status).toBe(204);
    expect((await api.post(path, { ip: '198.51.100.9/32', ports: ['2000'] })).status).toBe(204);
    expect((await api.post(path, { ip: 'localhost', ports: ['2001'] })).status).toBe(204);
    expect((await api.post(path, { ip: '2001:db8::1', ports: ['2001'] })).status).toBe(204);
    expect(await pairs(nodeId)).toEqual([
      '198.51.100.4:2000',
      '198.51.100.5:2000',
      '198.51.100.6:2000',
      '198.51.100.7:2000',
      '198.51.100.9:2000',
      '127.0.0.1:2001',
      '2001:db8::1:2001',
    ]);
    expect((await api.post(path, { ip: '198.51.100.128/25', ports: ['2002'] })).status).toBe(204);
    expect((await pairs(nodeId)).filter((p) => p.endsWith(':2002'))).toHaveLength(128);
  });

  it('answers each business error with its code and detail, adding nothing', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { ip: '10.0.0.0/24', ports: ['2000'] },
        'CidrOutOfRangeException',
        'CIDR notation only allows masks between /25 and /32.',
      ],
      [
        { ip: '10.0.0.0/33', ports: ['2000'] },
        'CidrOutOfRangeException',
        'CIDR notation only allows masks between /25 and /32.',
      ],
      [
        { ip: 'not a host!', ports: ['2000'] },
        'DisplayException',
        'Could not parse provided allocation IP address (not a host!): not an IP address, CIDR block or hostname',
      ],
      [
        { ip: '10.0.0.1', ports: ['2000', 'abc'] },
        'InvalidPortMappingException',
        'The mapping provided for abc was invalid and could not be processed.',
      ],
      [
        { ip: '10.0.0.1', ports: ['200-300'] },
        'InvalidPortMappingException',
        'The mapping provided for 200-300 was invalid and could not be processed.',
      ],
      [
        { ip: '10.0.0.1', ports: ['3000-2000'] },
        'InvalidPortMappingException',
        'The mapping provided for 3000-2000 was invalid and could not be processed.',
      ],
      [
        { ip: '10.0.0.1', ports: ['2000-3000'] },
        'TooManyPortsInRangeException',
        'Adding more than 1000 ports in a single range at once is not supported.',
      ],
      [
        { ip: '10.0.0.1', ports: ['2000', '1024'] },
        'PortOutOfRangeException',
        'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
      ],
      [
        { ip: '10.0.0.1', ports: ['65000-65536'] },
        'PortOutOfRangeException',
        'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
      ],
    ];
    for (const [b, code, detail] of cases) {
      const res = await api.post(path, b);
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(firstError(res)).toEqual({ code, status: '400', detail });
    }
    // A range of exactly 1000 ports is allowed.
    expect((await api.post(path, { ip: '10.0.0.1', ports: ['2000-2999'] })).status).toBe(204);
    expect(await pairs(nodeId)).toHaveLength(1000);
  });

  it('validates the body (422)', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    expect(details(await api.post(path, {}))).toEqual([
      'ip|required|The ip field is required.',
      'ports|required|The ports field is required.',
    ]);
    expect(details(await api.post(path, { ip: 5, ports: '2000' }))).toEqual([
      'ip|string|The ip must be a string.',
      'ports|array|The ports must be an array.',
    ]);
    expect(details(await api.post(path, { ip: '10.0.0.1', ports: [2000] }))).toEqual([
      'ports.0|string|The ports.0 must be a string.',
    ]);
    expect(
      details(await api.post(path, { ip: '10.0.0.1', ports: ['2000'], alias: 'a'.repeat(192) })),
    ).toEqual(['alias|max|The alias may not be greater than 191 characters.']);
    expect(await pairs(nodeId)).toEqual([]);
    expect(
      (await api.post('/api/application/nodes/999999/allocations', { ip: '10.0.0.1', ports: ['2000'] }))
        .status,
    ).toBe(404);
  });
});

describe('DELETE /api/application/nodes/{id}/allocations/{allocation}', () => {
  it('deletes an unassigned allocation of that node only', async () => {
    const a = await insertNode(panel);
    const b = await insertNode(panel);
    expect(
      (await api.delete(`/api/application/nodes/${b.nodeId}/allocations/${a.allocationId}`)).status,
    ).toBe(404);
    const res = await api.delete(`/api/application/nodes/${a.nodeId}/allocations/${a.allocationId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await pairs(a.nodeId)).toEqual([]);
    const again = await api.delete(`/api/application/nodes/${a.nodeId}/allocations/${a.allocationId}`);
    expect(firstError(again)).toEqual({
      code: 'NotFoundHttpException',
      status: '404',
      detail: 'The requested resource could not be found on the server.',
    });
  });

  it('refuses an allocation a server uses', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const owner = await panel.createUser();
    await insertServer(panel, { ownerId: owner.id, nodeId, allocationId });
    const res = await api.delete(`/api/application/nodes/${nodeId}/allocations/${allocationId}`);
    expectError(
      res,
      400,
      'ServerUsingAllocationException',
      'A server is currently assigned to this allocation. An allocation can only be deleted if no server is currently assigned.',
    );
  });
});

describe('port ranges (reference §5.3) as the admin screen sends them', () => {
  it('25565-25600 adds the 36 ports of the range', async () => {
    const nodeId = await emptyNode();
    const path = `/api/application/nodes/${nodeId}/allocations`;
    expect((await api.post(path, { ip: '192.0.2.40', ports: ['25565-25600'] })).status).toBe(204);
    const added = await pairs(nodeId);
    expect(added).toHaveLength(36);
    expect(added[0]).toBe('192.0.2.40:25565');
    expect(added.at(-1)).toBe('192.0.2.40:25600');
  });
});

describe('PATCH /nodes/{id}/allocations/{allocation} (extension: alias and notes)', () => {
  it('sets and clears alias and notes; a field left out keeps its value', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const path = `/api/application/nodes/${nodeId}/allocations/${allocationId}`;
    const set = await api.request('PATCH', path, { alias: 'play.example.com', notes: 'Main game port' });
    expect(set.status, set.text).toBe(200);
    expect(set.body.object).toBe('allocation');
    expect(Object.keys(set.body.attributes)).toEqual(ALLOCATION_KEYS);
    expect(set.body.attributes).toMatchObject({
      id: allocationId,
      alias: 'play.example.com',
      notes: 'Main game port',
      assigned: false,
    });
    const notesOnly = await api.request('PATCH', path, { notes: null });
    expect(notesOnly.body.attributes).toMatchObject({ alias: 'play.example.com', notes: null });
    const row = await panel.ctx.db.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', allocationId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ip_alias: 'play.example.com', notes: null });
  });

  it('works on an allocation a server uses', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    await insertServer(panel, { ownerId: admin.id, nodeId, allocationId });
    const res = await api.request('PATCH', `/api/application/nodes/${nodeId}/allocations/${allocationId}`, {
      notes: 'Reserved',
    });
    expect(res.status).toBe(200);
    expect(res.body.attributes).toMatchObject({ notes: 'Reserved', assigned: true });
  });

  it('422 per bad field, changing nothing; 404 for another node’s allocation; 403 without write', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const other = await insertNode(panel);
    const path = `/api/application/nodes/${nodeId}/allocations/${allocationId}`;
    const bad = await api.request('PATCH', path, { alias: 'a'.repeat(192), notes: 'n'.repeat(257) });
    expect(bad.status).toBe(422);
    expect(details(bad)).toEqual([
      'alias|max|The alias may not be greater than 191 characters.',
      'notes|max|The notes may not be greater than 256 characters.',
    ]);
    const wrongType = await api.request('PATCH', path, { notes: ['x'] });
    expect(details(wrongType)).toEqual(['notes|string|The notes must be a string.']);
    expect(await pairs(nodeId)).toEqual(['10.0.0.1:25565']);
    expect(
      (await api.request('PATCH', `/api/application/nodes/${other.nodeId}/allocations/${allocationId}`, {}))
        .status,
    ).toBe(404);
    const readOnly = await applicationClient(panel, admin, { r_allocations: READ });
    expectError(
      await readOnly.request('PATCH', path, { notes: 'x' }),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    expect((await new TestClient(panel.url).request('PATCH', path, { notes: 'x' })).status).toBe(401);
    const row = await panel.ctx.db.db
      .selectFrom('allocations')
      .select('notes')
      .where('id', '=', allocationId)
      .executeTakeFirstOrThrow();
    expect(row.notes).toBeNull();
  });
});
