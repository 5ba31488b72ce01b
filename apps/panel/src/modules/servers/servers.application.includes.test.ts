import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { addSubuser, applicationClient, gameServerEgg, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { IncludedServers } from '../application/included-servers.ts';
import { ServerDatabasesRepository } from '../databases/databases.repository.ts';
import { IncludedServersRepository } from '../application/included-servers.repository.ts';
import { Includes } from '../application/includes.ts';
import { insertNode, READ, UTC_ATOM } from '../application/testing.ts';
import { EggsRepository } from '../eggs/eggs.repository.ts';
import { LocationsRepository } from '../locations/locations.repository.ts';
import { AllocationsRepository } from '../nodes/allocations.repository.ts';
import { NodesRepository } from '../nodes/nodes.repository.ts';
import { ApplicationUsersRepository } from '../users/users.application.repository.ts';
import { presentServers } from './servers.application.includes.ts';
import { ServersRepository } from './servers.repository.ts';

// The includes of the application server object (reference §1.4, §5.1), on a page of two servers
// that differ in everything an include shows: owner, node, location, nest, egg, allocations,
// subusers and variable values.
let panel: TestPanel;
let full: TestClient;
let owners: [User, User];
let member: User;
let nodes: [Node, Node];
let eggs: [Egg, Egg];
let servers: [Server, Server];
let allocationIds: [number[], number[]];
let subuserId: number;
let databaseIds: [number[], number[]];

const NULL = { object: 'null_resource', attributes: null };
const EVERY = 'allocations,user,subusers,nest,egg,variables,location,node,databases';

beforeAll(async () => {
  panel = await startTestPanel();
  const { ctx } = panel;
  const db = ctx.db.db;
  full = await applicationClient(panel);
  owners = [await panel.createUser(), await panel.createUser()];
  member = await panel.createUser();

  const local = await nodeAndEgg(ctx, [31000, 31004]);
  const second = await insertNode(panel, { port: 32000 });
  nodes = [
    local.node,
    await db.selectFrom('nodes').selectAll().where('id', '=', second.nodeId).executeTakeFirstOrThrow(),
  ];

  // The second egg lives in a nest of its own, so `nest` differs per server too.
  const builtIn = await gameServerEgg(ctx);
  const now = new Date().toISOString();
  const nest = await ctx.repositories.eggs.insertNest({
    uuid: crypto.randomUUID(),
    author: 'tests@example.com',
    name: 'Second nest',
    description: null,
    created_at: now,
    updated_at: now,
  });
  const other = await db
    .selectFrom('eggs')
    .selectAll()
    .where('id', '!=', builtIn.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('eggs').set({ nest_id: nest.id }).where('id', '=', other.id).execute();
  eggs = [builtIn, { ...other, nest_id: nest.id }];

  const first = await serverRow(
    ctx,
    nodes[0],
    eggs[0],
    owners[0].id,
    { external_id: 'billing-1' },
    (env, d) => (env === 'MAX_PLAYERS' ? '20' : d),
  );
  // A second allocation for the first server.
  const extra = await db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', nodes[0].id)
    .where('server_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('allocations').set({ server_id: first.id }).where('id', '=', extra.id).execute();
  const secondServer = await serverRow(ctx, nodes[1], eggs[1], owners[1].id);
  servers = [first, secondServer];
  allocationIds = [[first.allocation_id, extra.id], [secondServer.allocation_id]];

  const sub = await addSubuser(ctx, first, member, ['control.console', 'file.read'], {
    created_at: '2024-05-01T12:34:56.000Z',
    updated_at: '2024-05-02T08:00:00.000Z',
  });
  subuserId = sub.id;

  // A database of the first server (rows only: the include reads what the panel recorded).
  const host = await db
    .insertInto('database_hosts')
    .values({
      name: 'rows only',
      engine: 'mysql',
      host: '192.0.2.10',
      port: 3306,
      username: 'panel',
      password: 'not used',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const database = await db
    .insertInto('databases')
    .values({
      server_id: first.id,
      database_host_id: host.id,
      database: `s${first.id}_world`,
      username: `u${first.id}_abc`,
      remote: '%',
      password: 'encrypted elsewhere',
      max_connections: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  databaseIds = [[database.id], []];
}, 120_000);

afterAll(async () => {
  await panel?.close();
});

/** The list's servers by id. */
async function listed(client: TestClient, include: string): Promise<Map<number, any>> {
  const res = await client.get(`/api/application/servers?include=${include}`);
  expect(res.status, res.text).toBe(200);
  return new Map(res.body.data.map((s: any) => [s.attributes.id, s.attributes]));
}

const ids = (rel: any) => {
  expect(rel.object).toBe('list');
  return rel.data.map((d: any) => `${d.object}:${d.attributes.id}`);
};

describe('application server includes', () => {
  it('render every include with the right objects for each server of a list', async () => {
    const byId = await listed(full, EVERY);
    expect(byId.size).toBe(2);
    for (const [i, server] of servers.entries()) {
      const rel = byId.get(server.id).relationships;
      expect(Object.keys(rel).sort()).toEqual(EVERY.split(',').sort());
      expect(ids(rel.allocations)).toEqual(allocationIds[i]!.map((id) => `allocation:${id}`));
      expect(Object.keys(rel.allocations.data[0].attributes)).toEqual([
        'id',
        'ip',
        'alias',
        'port',
        'notes',
        'assigned',
      ]);
      expect(rel.allocations.data[0].attributes.assigned).toBe(true);
      expect(rel.user.object).toBe('user');
      expect(rel.user.attributes).toMatchObject({ id: owners[i]!.id, username: owners[i]!.username });
      expect(rel.nest.object).toBe('nest');
      expect(rel.nest.attributes.id).toBe(eggs[i]!.nest_id);
      expect(rel.egg.object).toBe('egg');
      expect(rel.egg.attributes).toMatchObject({ id: eggs[i]!.id, nest: eggs[i]!.nest_id });
      expect(rel.location).toMatchObject({ object: 'location', attributes: { id: nodes[i]!.location_id } });
      expect(rel.node).toMatchObject({ object: 'node', attributes: { id: nodes[i]!.id } });
      expect(rel.node.attributes.daemon_token).toBeUndefined();
      expect(rel.node.attributes.daemon_token_id).toBeUndefined();
      expect(ids(rel.databases)).toEqual(databaseIds[i]!.map((id) => `server_database:${id}`));
      // Included objects carry no relationships unless asked for below their name.
      expect(rel.node.attributes.relationships).toBeUndefined();
      expect(rel.user.attributes.relationships).toBeUndefined();
    }
    const database = byId.get(servers[0].id).relationships.databases.data[0].attributes;
    expect(database).toMatchObject({ server: servers[0].id, database: `s${servers[0].id}_world`, remote: '%' });
    expect(database.password).toBeUndefined();
    // The owner object is the application user object.
    const user = byId.get(servers[0].id).relationships.user.attributes;
    expect(Object.keys(user)).toEqual([
      'id',
      'external_id',
      'uuid',
      'username',
      'email',
      'first_name',
      'last_name',
      'language',
      'root_admin',
      '2fa',
      'created_at',
      'updated_at',
    ]);
  });

  it('subusers are `subuser` objects with their permissions and UTC dates', async () => {
    const byId = await listed(full, 'subusers');
    expect(byId.get(servers[0].id).relationships.subusers).toEqual({
      object: 'list',
      data: [
        {
          object: 'subuser',
          attributes: {
            id: subuserId,
            user_id: member.id,
            server_id: servers[0].id,
            permissions: ['control.console', 'file.read'],
            created_at: '2024-05-01T12:34:56+00:00',
            updated_at: '2024-05-02T08:00:00+00:00',
          },
        },
      ],
    });
    expect(byId.get(servers[1].id).relationships).toEqual({ subusers: { object: 'list', data: [] } });

    const nested = await full.get(
      `/api/application/servers/${servers[0].id}?include=subusers.user,subusers.server`,
    );
    const sub = nested.body.attributes.relationships.subusers.data[0].attributes.relationships;
    expect(sub.user).toMatchObject({ object: 'user', attributes: { id: member.id } });
    expect(sub.server).toMatchObject({ object: 'server', attributes: { id: servers[0].id } });
    expect(sub.server.attributes.relationships).toBeUndefined();
  });

  it('variables are `server_variable` objects: the egg variable plus the server value', async () => {
    const res = await full.get(`/api/application/servers/${servers[0].id}?include=variables`);
    const variables = res.body.attributes.relationships.variables;
    expect(variables.object).toBe('list');
    const eggVariables = await panel.ctx.repositories.eggs.variables(eggs[0].id);
    expect(variables.data.map((v: any) => `${v.object}:${v.attributes.env_variable}`)).toEqual(
      eggVariables.map((v) => `server_variable:${v.env_variable}`),
    );
    const maxPlayers = variables.data.find(
      (v: any) => v.attributes.env_variable === 'MAX_PLAYERS',
    ).attributes;
    expect(Object.keys(maxPlayers)).toEqual([
      'id',
      'egg_id',
      'name',
      'description',
      'env_variable',
      'default_value',
      'user_viewable',
      'user_editable',
      'rules',
      'created_at',
      'updated_at',
      'server_value',
    ]);
    expect(maxPlayers).toMatchObject({ egg_id: eggs[0].id, server_value: '20' });
    expect(maxPlayers.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/u);
    expect(maxPlayers.server_value).not.toBe(maxPlayers.default_value);
  });

  it('are the same on the single and external-id routes as in the list', async () => {
    const inList = (await listed(full, EVERY)).get(servers[0].id);
    const single = await full.get(`/api/application/servers/${servers[0].id}?include=${EVERY}`);
    expect(single.status).toBe(200);
    expect(single.body.attributes).toEqual(inList);
    const external = await full.get(`/api/application/servers/external/billing-1?include=${EVERY}`);
    expect(external.status).toBe(200);
    expect(external.body.attributes).toEqual(inList);
    expect(inList.created_at).toMatch(UTC_ATOM);
  });

  it('without includes, or with unknown ones only, there is no relationships key', async () => {
    const plain = await full.get(`/api/application/servers/${servers[0].id}`);
    expect(plain.body.attributes.relationships).toBeUndefined();
    const unknown = await full.get(`/api/application/servers/${servers[0].id}?include=bogus,owner`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.attributes.relationships).toBeUndefined();
    const mixed = await full.get(`/api/application/servers/${servers[0].id}?include[]=bogus&include[]=node`);
    expect(Object.keys(mixed.body.attributes.relationships)).toEqual(['node']);
  });

  it('`transfer` is a null resource (the original answers 500)', async () => {
    const res = await full.get(`/api/application/servers/${servers[0].id}?include=transfer`);
    expect(res.status).toBe(200);
    expect(res.body.attributes.relationships).toEqual({ transfer: NULL });
  });

  it('are null resources when the key lacks READ on the include’s resource', async () => {
    const noNodes = await applicationClient(panel, {
      r_servers: READ,
      r_users: READ,
      r_allocations: READ,
      r_locations: READ,
      r_nests: READ,
      r_eggs: READ,
    });
    const res = await noNodes.get(`/api/application/servers/${servers[0].id}?include=node,user`);
    expect(res.status).toBe(200);
    expect(res.body.attributes.relationships.node).toEqual(NULL);
    expect(res.body.attributes.relationships.user.attributes.id).toBe(owners[0].id);

    const onlyServers = await applicationClient(panel, { r_servers: READ });
    const byId = await listed(onlyServers, `${EVERY},transfer`);
    for (const server of servers) {
      const { variables, ...rest } = byId.get(server.id).relationships;
      expect(variables.object).toBe('list');
      expect(variables.data.length).toBeGreaterThan(0);
      expect(rest).toEqual(
        Object.fromEntries(
          [...EVERY.split(','), 'transfer'].filter((n) => n !== 'variables').map((n) => [n, NULL]),
        ),
      );
    }
  });

  it('are granted to root admins’ sessions', async () => {
    const session = await panel.signedIn(await panel.createUser({ admin: true }));
    const res = await session.get(`/api/application/servers/${servers[1].id}?include=node,subusers`);
    expect(res.status).toBe(200);
    expect(res.body.attributes.relationships.node.attributes.id).toBe(nodes[1].id);
    expect(res.body.attributes.relationships.subusers).toEqual({ object: 'list', data: [] });
  });

  it('nest below a name (`allocations.node`), which implies the outer include', async () => {
    const byId = await listed(full, 'allocations.node');
    for (const [i, server] of servers.entries()) {
      const rel = byId.get(server.id).relationships;
      expect(Object.keys(rel)).toEqual(['allocations']);
      for (const allocation of rel.allocations.data) {
        expect(Object.keys(allocation.attributes.relationships)).toEqual(['node']);
        expect(allocation.attributes.relationships.node).toMatchObject({
          object: 'node',
          attributes: { id: nodes[i]!.id },
        });
      }
    }
    // The nested include follows the ACL too.
    const noNodes = await applicationClient(panel, { r_servers: READ, r_allocations: READ });
    const denied = await noNodes.get(`/api/application/servers/${servers[0].id}?include=allocations.node`);
    expect(denied.body.attributes.relationships.allocations.data[0].attributes.relationships).toEqual({
      node: NULL,
    });
  });

  it('stop at two levels (`a.b.c` is cut to `a.b`)', async () => {
    const res = await full.get(`/api/application/servers/${servers[0].id}?include=allocations.node.location`);
    const node = res.body.attributes.relationships.allocations.data[0].attributes.relationships.node;
    expect(node.attributes.id).toBe(nodes[0].id);
    expect(node.attributes.relationships).toBeUndefined();
    const two = await full.get(`/api/application/servers/${servers[0].id}?include=node.location`);
    expect(two.body.attributes.relationships.node.attributes.relationships.location.attributes.id).toBe(
      nodes[0].location_id,
    );
  });

  it('load each include once for the whole page, however many servers it has (no N+1)', async () => {
    let queries = 0;
    const db = panel.ctx.db.db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const repos = {
      servers: new ServersRepository(db),
      nodes: new NodesRepository(db),
      allocations: new AllocationsRepository(db),
      locations: new LocationsRepository(db),
      eggs: new EggsRepository(db),
      applicationUsers: new ApplicationUsersRepository(db),
      includedServers: new IncludedServersRepository(db),
      serverDatabases: new ServerDatabasesRepository(db),
    };
    const sources = { ...repos, includedServers: new IncludedServers(repos) };
    const admin = await panel.createUser({ admin: true });
    const inc = Includes.fromQuery(
      { include: `${EVERY},allocations.node,user.servers,subusers.user,egg.variables,location.nodes` },
      { user: admin, apiKey: null },
    );
    const count = async (page: Server[]) => {
      queries = 0;
      const presented = await presentServers(sources, page, inc);
      expect(presented.map((s) => s.id)).toEqual(page.map((s) => s.id));
      return queries;
    };
    const one = await count([servers[0]]);
    const both = await count(servers);
    expect(one).toBeGreaterThan(10);
    expect(both).toBe(one);
  });

  it('PATCH responses honour includes like the GET routes', async () => {
    const res = await full.request('PATCH', `/api/application/servers/${servers[1].id}/details?include=egg`, {
      name: 'Renamed',
      user: owners[1].id,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.name).toBe('Renamed');
    expect(res.body.attributes.relationships.egg.attributes.id).toBe(eggs[1].id);
  });
});

describe('nested includes on the other application objects', () => {
  it('a location’s nodes get their own includes (`nodes.location`, `nodes.servers`)', async () => {
    const res = await full.get(
      `/api/application/locations/${nodes[1].location_id}?include=nodes.location,nodes.servers`,
    );
    expect(res.status).toBe(200);
    const node = res.body.attributes.relationships.nodes.data[0].attributes;
    expect(node.id).toBe(nodes[1].id);
    expect(node.relationships.location).toMatchObject({
      object: 'location',
      attributes: { id: nodes[1].location_id },
    });
    expect(ids(node.relationships.servers)).toEqual([`server:${servers[1].id}`]);
    expect(Object.keys(res.body.attributes.relationships)).toEqual(['nodes']);
  });

  it('a user’s servers get their own includes (`servers.egg`), one object per server', async () => {
    const res = await full.get(`/api/application/users?include=servers.egg,servers.allocations`);
    const byId = new Map<number, any>(res.body.data.map((u: any) => [u.attributes.id, u.attributes]));
    for (const [i, owner] of owners.entries()) {
      const owned = byId.get(owner.id).relationships.servers;
      expect(ids(owned)).toEqual([`server:${servers[i]!.id}`]);
      expect(owned.data[0].attributes.relationships.egg.attributes.id).toBe(eggs[i]!.id);
      expect(ids(owned.data[0].attributes.relationships.allocations)).toEqual(
        allocationIds[i]!.map((id) => `allocation:${id}`),
      );
    }
  });

  it('a node’s allocations get their server (`allocations.server`); allocations their node’s location', async () => {
    const node = await full.get(`/api/application/nodes/${nodes[0].id}?include=allocations.server`);
    const allocations = node.body.attributes.relationships.allocations.data.map((a: any) => a.attributes);
    const assigned = allocations.filter((a: any) => a.assigned);
    expect(assigned.map((a: any) => a.id).sort()).toEqual([...allocationIds[0]].sort());
    for (const a of assigned) expect(a.relationships.server.attributes.id).toBe(servers[0].id);
    const free = allocations.find((a: any) => !a.assigned);
    expect(free.relationships.server).toEqual(NULL);

    const list = await full.get(`/api/application/nodes/${nodes[1].id}/allocations?include=node.location`);
    const rel = list.body.data[0].attributes.relationships;
    expect(rel.node.attributes.relationships.location.attributes.id).toBe(nodes[1].location_id);
  });

  it('a nest’s eggs get their variables (`eggs.variables`); an egg its nest’s eggs (`nest.eggs`)', async () => {
    const nest = await full.get(`/api/application/nests/${eggs[1].nest_id}?include=eggs.variables`);
    expect(nest.status).toBe(200);
    const egg = nest.body.attributes.relationships.eggs.data[0];
    expect(egg.attributes.id).toBe(eggs[1].id);
    const variables = await panel.ctx.repositories.eggs.variables(eggs[1].id);
    expect(egg.attributes.relationships.variables.data.map((v: any) => v.attributes.id)).toEqual(
      variables.map((v) => v.id),
    );

    const single = await full.get(
      `/api/application/nests/${eggs[0].nest_id}/eggs/${eggs[0].id}?include=nest.eggs`,
    );
    const nestEggs = single.body.attributes.relationships.nest.attributes.relationships.eggs;
    expect(ids(nestEggs)).toContain(`egg:${eggs[0].id}`);
    expect(ids(nestEggs)).not.toContain(`egg:${eggs[1].id}`);
  });
});
