import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, insertNode, insertServer, READ } from './testing.ts';

let panel: TestPanel;
let admin: User;
let owner: User;
let all: TestClient;
let noServers: TestClient;
let ids: {
  locationId: number;
  nodeId: number;
  allocationId: number;
  serverId: number;
  freeAllocationId: number;
};

const NULL = { object: 'null_resource', attributes: null };

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  owner = await panel.createUser();
  const every = { r_users: READ, r_nodes: READ, r_locations: READ, r_allocations: READ };
  all = await applicationClient(panel, admin, { ...every, r_servers: READ });
  noServers = await applicationClient(panel, admin, every);
  const node = await insertNode(panel);
  const serverId = await insertServer(panel, {
    ownerId: owner.id,
    nodeId: node.nodeId,
    allocationId: node.allocationId,
  });
  await panel.ctx.services.allocations.create(
    node.nodeId,
    { ip: '10.0.0.1', ports: ['30001'] },
    { userId: null, apiKeyId: null, ip: null },
  );
  const free = await panel.ctx.db.db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', node.nodeId)
    .where('port', '=', 30001)
    .executeTakeFirstOrThrow();
  ids = { ...node, serverId, freeAllocationId: free.id };
});
afterAll(async () => {
  await panel.close();
});

function serverIds(rel: { object: string; data: { object: string; attributes: { id: number } }[] }) {
  expect(rel.object).toBe('list');
  return rel.data.map((s) => `${s.object}:${s.attributes.id}`);
}

describe('the servers includes', () => {
  it('users, nodes and locations list their servers with the application server object', async () => {
    const user = await all.get(`/api/application/users/${owner.id}?include=servers`);
    expect(serverIds(user.body.attributes.relationships.servers)).toEqual([`server:${ids.serverId}`]);
    const server = user.body.attributes.relationships.servers.data[0].attributes;
    expect(server).toMatchObject({
      id: ids.serverId,
      user: owner.id,
      node: ids.nodeId,
      allocation: ids.allocationId,
    });

    const node = await all.get(`/api/application/nodes/${ids.nodeId}?include=servers`);
    expect(serverIds(node.body.attributes.relationships.servers)).toEqual([`server:${ids.serverId}`]);
    const location = await all.get(`/api/application/locations/${ids.locationId}?include=servers,nodes`);
    expect(serverIds(location.body.attributes.relationships.servers)).toEqual([`server:${ids.serverId}`]);
    expect(location.body.attributes.relationships.nodes.data[0].attributes.relationships).toBeUndefined();

    const adminRow = await all.get(`/api/application/users/${admin.id}?include=servers`);
    expect(adminRow.body.attributes.relationships.servers).toEqual({ object: 'list', data: [] });
  });

  it('allocations include their server, a null resource when unassigned', async () => {
    const res = await all.get(`/api/application/nodes/${ids.nodeId}/allocations?include=server,node`);
    const byId = new Map<number, any>(
      res.body.data.map((a: any) => [a.attributes.id, a.attributes.relationships]),
    );
    expect(byId.get(ids.allocationId).server.object).toBe('server');
    expect(byId.get(ids.allocationId).server.attributes.id).toBe(ids.serverId);
    expect(byId.get(ids.freeAllocationId).server).toEqual(NULL);
    expect(byId.get(ids.freeAllocationId).node.attributes.id).toBe(ids.nodeId);
    expect(byId.get(ids.freeAllocationId).node.attributes.relationships).toBeUndefined();
  });

  it('are null resources for keys without r_servers', async () => {
    expect(
      (await noServers.get(`/api/application/users/${owner.id}?include=servers`)).body.attributes
        .relationships,
    ).toEqual({ servers: NULL });
    expect(
      (await noServers.get(`/api/application/nodes/${ids.nodeId}?include=servers`)).body.attributes
        .relationships,
    ).toEqual({ servers: NULL });
    const allocations = await noServers.get(
      `/api/application/nodes/${ids.nodeId}/allocations?include=server`,
    );
    for (const a of allocations.body.data) expect(a.attributes.relationships).toEqual({ server: NULL });
  });

  it('are granted to root admins’ sessions (unlike the original, which nulls them)', async () => {
    const session = await panel.signedIn(admin);
    const res = await session.get(`/api/application/users/${owner.id}?include=servers`);
    expect(serverIds(res.body.attributes.relationships.servers)).toEqual([`server:${ids.serverId}`]);
  });

  it('ignore unknown include names and accept include[] arrays', async () => {
    const res = await all.get(`/api/application/nodes/${ids.nodeId}?include[]=bogus&include[]=location`);
    expect(Object.keys(res.body.attributes.relationships)).toEqual(['location']);
    const none = await all.get(`/api/application/nodes/${ids.nodeId}?include=bogus`);
    expect(none.body.attributes.relationships).toBeUndefined();
  });

  it('a write-only key (bit 2) cannot read includes', async () => {
    const writeOnly = await applicationClient(panel, admin, { r_users: READ, r_servers: 2 });
    const res = await writeOnly.get(`/api/application/users/${owner.id}?include=servers`);
    expect(res.body.attributes.relationships).toEqual({ servers: NULL });
  });
});
