import { applicationDatabaseHostSchema, applicationServerDatabaseSchema } from '@talon/shared';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { decrypt } from '../../lib/crypto.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import {
  connectMysql,
  mysqlAdmin,
  mysqlDatabaseExists,
  postgresAdmin,
  uniqueDatabaseName,
} from '../../test-support/database-hosts.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL, READ, UTC_ATOM } from '../application/testing.ts';
import { databaseServices } from './databases.wiring.ts';

// The application API of database hosts (Pelican's shape, our `engine`) and of server databases
// (reference §5.6), against the real MariaDB and PostgreSQL of this machine.
let panel: TestPanel;
let node: Node;
let egg: Egg;
let admin: User;
let api: TestClient;
let server: Server;
const suffix = Math.random().toString(36).slice(2, 8);
/** accounts made on the hosts by this file, dropped at the end */
const weakMysqlUser = `talon_weak_${suffix}`;
const weakPgRole = `talon_weak_${suffix}`;

const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
};
const hostCount = async () =>
  (await panel.ctx.db.db.selectFrom('database_hosts').select('id').execute()).length;
async function mysqlBody(name = `mariadb-${uniqueDatabaseName()}`) {
  const a = await mysqlAdmin();
  return {
    name,
    host: a.host,
    port: a.port,
    username: a.username,
    password: a.password,
    node_ids: [node.id],
  };
}
const pgBody = () => {
  const a = postgresAdmin();
  return {
    name: `pg-${uniqueDatabaseName()}`,
    engine: 'postgresql',
    host: a.host,
    port: a.port,
    username: a.username,
    password: a.password,
  };
};

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46400, 46439]));
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, {
    r_database_hosts: FULL,
    r_server_databases: FULL,
    r_servers: FULL,
  });
  const owner = await panel.createUser();
  server = await serverRow(panel.ctx, node, egg, owner.id, { database_limit: 10 });
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  await root.query('CREATE USER ?@? IDENTIFIED BY ?', [weakMysqlUser, '127.0.0.1', 'weak-pass']);
  await root.end();
  const p = postgresAdmin();
  const c = new pg.Client({
    host: p.host,
    port: p.port,
    user: p.username,
    password: p.password,
    database: 'postgres',
  });
  await c.connect();
  await c.query(`CREATE ROLE ${c.escapeIdentifier(weakPgRole)} LOGIN PASSWORD 'weak-pass'`);
  await c.end();
}, 60_000);

afterAll(async () => {
  const { databases } = databaseServices({ ...panel.ctx, activity: panel.ctx.services.activity });
  for (const row of await panel.ctx.db.db.selectFrom('databases').select('id').execute()) {
    await databases.delete(await databases.findById(String(row.id)), {
      userId: null,
      apiKeyId: null,
      ip: null,
    });
  }
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  await root.query('DROP USER IF EXISTS ?@?', [weakMysqlUser, '127.0.0.1']);
  await root.end();
  const p = postgresAdmin();
  const c = new pg.Client({
    host: p.host,
    port: p.port,
    user: p.username,
    password: p.password,
    database: 'postgres',
  });
  await c.connect();
  await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(weakPgRole)}`);
  await c.end();
  await panel?.close();
});

describe('database hosts', () => {
  it('POST connects, stores the password encrypted and never returns it (201, meta.resource)', async () => {
    const body = await mysqlBody();
    const res = await api.post('/api/application/database-hosts', body);
    expect(res.status, res.text).toBe(201);
    const a = applicationDatabaseHostSchema.parse(res.body.attributes);
    expect(res.body.attributes).toEqual({
      id: a.id,
      name: body.name,
      engine: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      username: body.username,
      max_databases: null,
      node: node.id,
      node_ids: [node.id],
      created_at: expect.stringMatching(UTC_ATOM),
      updated_at: expect.stringMatching(UTC_ATOM),
    });
    expect(res.text).not.toContain(body.password);
    expect(res.body.meta).toEqual({ resource: `${panel.url}/api/application/database-hosts/${a.id}` });
    const row = await panel.ctx.db.db
      .selectFrom('database_hosts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.password).not.toContain(body.password);
    expect(decrypt(panel.ctx.config.appKey, row.password)).toBe(body.password);

    const one = await api.get(`/api/application/database-hosts/${a.id}`);
    expect(one.body).toEqual({ object: 'database_host', attributes: res.body.attributes });
    const list = await api.get('/api/application/database-hosts');
    expect(list.body.data.map((d: { attributes: { id: number } }) => d.attributes.id)).toContain(a.id);
    expect(list.body.meta.pagination).toMatchObject({ current_page: 1 });
  });

  it('PostgreSQL hosts (our extension) are checked the same way', async () => {
    const res = await api.post('/api/application/database-hosts', pgBody());
    expect(res.status, res.text).toBe(201);
    expect(res.body.attributes).toMatchObject({ engine: 'postgresql', port: 5432, node_ids: [], node: null });
  });

  it('refuses a host it cannot use with a 400 naming the problem, storing nothing', async () => {
    const before = await hostCount();
    const base = await mysqlBody();
    expectError(
      await api.post('/api/application/database-hosts', { ...base, port: 1 }),
      400,
      'DatabaseHostConnectionException',
      'The database host 127.0.0.1:1 could not be reached (ECONNREFUSED).',
    );
    expectError(
      await api.post('/api/application/database-hosts', { ...base, password: 'wrong-password' }),
      400,
      'DatabaseHostConnectionException',
      `The database host 127.0.0.1:3306 denied access to "${base.username}": check the username, password and the host the panel connects from.`,
    );
    const weak = await api.post('/api/application/database-hosts', {
      ...base,
      username: weakMysqlUser,
      password: 'weak-pass',
    });
    expect(weak.status, weak.text).toBe(400);
    expect(weak.body.errors[0].detail).toMatch(
      new RegExp(
        `^"${weakMysqlUser}" may not create databases, users or grants on 127\\.0\\.0\\.1:3306 .*ALL PRIVILEGES WITH GRANT OPTION and CREATE USER\\.$`,
        'u',
      ),
    );
    const weakPg = await api.post('/api/application/database-hosts', {
      ...pgBody(),
      username: weakPgRole,
      password: 'weak-pass',
    });
    expect(weakPg.status, weakPg.text).toBe(400);
    expect(weakPg.body.errors[0].detail).toMatch(
      /may not create databases or roles on 127\.0\.0\.1:5432 .*CREATEDB and CREATEROLE\.$/u,
    );
    expect(await hostCount()).toBe(before);
  });

  it('answers 422 for bad fields', async () => {
    expect(failures(await api.post('/api/application/database-hosts', {}))).toEqual([
      'name|required|The name field is required.',
      'host|required|The host field is required.',
      'port|required|The port field is required.',
      'username|required|The username field is required.',
    ]);
    const base = await mysqlBody();
    expect(
      failures(await api.post('/api/application/database-hosts', { ...base, port: 70000, engine: 'oracle' })),
    ).toEqual([
      'port|between|The port must be between 1 and 65535.',
      'engine|in|The selected engine is invalid.',
    ]);
    expect(
      failures(await api.post('/api/application/database-hosts', { ...base, node_ids: [999999] })),
    ).toEqual(['node_ids|exists|The selected nodes is invalid.']);
  });

  it('PATCH re-checks the connection; without a password the stored one is kept', async () => {
    const created = await api.post('/api/application/database-hosts', await mysqlBody());
    const id = created.body.attributes.id as number;
    const { password: _password, ...withoutPassword } = await mysqlBody(`renamed-${suffix}`);
    const res = await api.request('PATCH', `/api/application/database-hosts/${id}`, {
      ...withoutPassword,
      max_databases: 3,
      node_ids: [],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({
      name: `renamed-${suffix}`,
      max_databases: 3,
      node_ids: [],
      node: null,
    });
    const bad = await api.request('PATCH', `/api/application/database-hosts/${id}`, {
      ...withoutPassword,
      password: 'wrong-password',
    });
    expect(bad.status).toBe(400);
    expect((await api.get(`/api/application/database-hosts/${id}`)).body.attributes.max_databases).toBe(3);
    const row = await panel.ctx.db.db
      .selectFrom('database_hosts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(decrypt(panel.ctx.config.appKey, row.password)).toBe((await mysqlAdmin()).password);
  });

  it('DELETE refuses a host with databases (400) and deletes an empty one (204); unknown ids are 404', async () => {
    const created = await api.post('/api/application/database-hosts', {
      ...(await mysqlBody()),
      node_ids: [],
    });
    const id = created.body.attributes.id as number;
    const db = await api.post(`/api/application/servers/${server.id}/databases`, {
      database: uniqueDatabaseName(),
      remote: '%',
      host: id,
    });
    expect(db.status, db.text).toBe(201);
    expectError(
      await api.delete(`/api/application/database-hosts/${id}`),
      400,
      'HasActiveDatabasesException',
      'Cannot delete a database host that still has databases: delete its databases first.',
    );
    expect(
      (await api.delete(`/api/application/servers/${server.id}/databases/${db.body.attributes.id}`)).status,
    ).toBe(204);
    expect((await api.delete(`/api/application/database-hosts/${id}`)).status).toBe(204);
    expect((await api.get(`/api/application/database-hosts/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/application/database-hosts/${id}`)).status).toBe(404);
  });

  it('needs r_database_hosts: READ for GET, WRITE for the rest', async () => {
    const none = await applicationClient(panel, admin, { r_database_hosts: 0 });
    const reader = await applicationClient(panel, admin, { r_database_hosts: READ });
    const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;
    expectError(await none.get('/api/application/database-hosts'), 403, ...FORBIDDEN);
    expect((await reader.get('/api/application/database-hosts')).status).toBe(200);
    const before = await hostCount();
    expectError(await reader.post('/api/application/database-hosts', await mysqlBody()), 403, ...FORBIDDEN);
    expect(await hostCount()).toBe(before);
  });
});

describe('server databases (§5.6)', () => {
  let hostId: number;
  beforeAll(async () => {
    // Serving the node too: the `host` include shows its nodes.
    hostId = (await api.post('/api/application/database-hosts', await mysqlBody())).body.attributes.id;
  });

  it('create (201, meta.resource), get with includes, list, reset-password, delete — on the real host', async () => {
    const name = uniqueDatabaseName();
    const res = await api.post(`/api/application/servers/${server.id}/databases?include=password,host`, {
      database: name,
      remote: '127.0.0.1',
      host: hostId,
    });
    expect(res.status, res.text).toBe(201);
    const a = applicationServerDatabaseSchema.parse(res.body.attributes);
    expect(a).toMatchObject({
      server: server.id,
      host: hostId,
      database: `s${server.id}_${name}`,
      remote: '127.0.0.1',
      max_connections: 0,
    });
    expect(res.body.meta).toEqual({
      resource: `${panel.url}/api/application/servers/${server.id}/databases/${a.id}`,
    });
    const password = res.body.attributes.relationships.password.attributes.password as string;
    expect(res.body.attributes.relationships.host).toMatchObject({
      object: 'database_host',
      attributes: { id: hostId, engine: 'mysql', node_ids: [node.id] },
    });
    await (await connectMysql({ username: a.username, password, database: a.database })).end();

    const list = await api.get(`/api/application/servers/${server.id}/databases`);
    expect(list.body.data.map((d: { attributes: { id: number } }) => d.attributes.id)).toContain(a.id);
    expect(list.body.data[0].attributes.relationships).toBeUndefined();
    const one = await api.get(`/api/application/servers/${server.id}/databases/${a.id}?include=password`);
    expect(one.body.attributes.relationships.password.attributes.password).toBe(password);

    expect(
      (await api.post(`/api/application/servers/${server.id}/databases/${a.id}/reset-password`)).status,
    ).toBe(204);
    await expect(connectMysql({ username: a.username, password, database: a.database })).rejects.toThrow(
      /Access denied/u,
    );

    expect((await api.delete(`/api/application/servers/${server.id}/databases/${a.id}`)).status).toBe(204);
    expect(await mysqlDatabaseExists(a.database)).toBe(false);
    expect((await api.get(`/api/application/servers/${server.id}/databases/${a.id}`)).status).toBe(404);
  });

  it('the host include needs r_database_hosts (a null resource without it)', async () => {
    const res = await api.post(`/api/application/servers/${server.id}/databases`, {
      database: uniqueDatabaseName(),
      remote: '%',
      host: hostId,
    });
    const limited = await applicationClient(panel, admin, { r_server_databases: READ });
    const one = await limited.get(
      `/api/application/servers/${server.id}/databases/${res.body.attributes.id}?include=host`,
    );
    expect(one.body.attributes.relationships.host).toEqual({ object: 'null_resource', attributes: null });
    const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;
    expectError(
      await limited.delete(`/api/application/servers/${server.id}/databases/${res.body.attributes.id}`),
      403,
      ...FORBIDDEN,
    );
  });

  it('answers 422 with the reference labels, a taken name included', async () => {
    expect(failures(await api.post(`/api/application/servers/${server.id}/databases`, {}))).toEqual([
      'database|required|The Database Name field is required.',
      'remote|required|The Remote Connection String field is required.',
      'host|required|The Database Host Server ID field is required.',
    ]);
    expect(
      failures(
        await api.post(`/api/application/servers/${server.id}/databases`, {
          database: 'ok',
          remote: 'example.com',
          host: 999999,
        }),
      ),
    ).toEqual([
      'remote|regex|The Remote Connection String format is invalid.',
      'host|exists|The selected Database Host Server ID is invalid.',
    ]);
    const name = uniqueDatabaseName();
    expect(
      (
        await api.post(`/api/application/servers/${server.id}/databases`, {
          database: name,
          remote: '%',
          host: hostId,
        })
      ).status,
    ).toBe(201);
    expect(
      failures(
        await api.post(`/api/application/servers/${server.id}/databases`, {
          database: name,
          remote: '%',
          host: hostId,
        }),
      ),
    ).toEqual(['database|unique|The Database Name has already been taken.']);
  });

  it("a host's databases (our extension): each with its server's id and name; needs r_server_databases", async () => {
    const created = await api.post(`/api/application/servers/${server.id}/databases`, {
      database: uniqueDatabaseName(),
      remote: '%',
      host: hostId,
    });
    expect(created.status, created.text).toBe(201);
    const made = created.body.attributes as { id: number; database: string; username: string };
    try {
      const res = await api.get(`/api/application/database-hosts/${hostId}/databases`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.object).toBe('list');
      const row = res.body.data.find((d: { attributes: { id: number } }) => d.attributes.id === made.id);
      expect(row).toEqual({
        object: 'server_database',
        attributes: {
          ...applicationServerDatabaseSchema.parse(row.attributes),
          relationships: {
            server: { object: 'server_summary', attributes: { id: server.id, name: server.name } },
          },
        },
      });
      expect(row.attributes).toMatchObject({ database: made.database, username: made.username, remote: '%' });

      const emptyHost = (await api.post('/api/application/database-hosts', await mysqlBody())).body.attributes
        .id;
      const none = await api.get(`/api/application/database-hosts/${emptyHost}/databases`);
      expect(none.body).toEqual({ object: 'list', data: [] });
      expect((await api.delete(`/api/application/database-hosts/${emptyHost}`)).status).toBe(204);
      expect((await api.get('/api/application/database-hosts/999999/databases')).status).toBe(404);

      const hostsOnly = await applicationClient(panel, admin, { r_database_hosts: READ });
      expect((await hostsOnly.get(`/api/application/database-hosts/${hostId}/databases`)).status).toBe(403);
    } finally {
      await api.delete(`/api/application/servers/${server.id}/databases/${made.id}`);
    }
  });

  it('deleting a server drops its databases on their hosts first', async () => {
    const owner = await panel.createUser();
    const doomed = await serverRow(panel.ctx, node, egg, owner.id, { database_limit: 5 });
    const res = await api.post(`/api/application/servers/${doomed.id}/databases`, {
      database: uniqueDatabaseName(),
      remote: '%',
      host: hostId,
    });
    expect(res.status, res.text).toBe(201);
    const name = res.body.attributes.database as string;
    expect(await mysqlDatabaseExists(name)).toBe(true);
    // No daemon runs for this node: `force` lets the deletion go past it, as the reference allows.
    const deleted = await api.delete(`/api/application/servers/${doomed.id}/force`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await mysqlDatabaseExists(name)).toBe(false);
    expect(
      await panel.ctx.db.db.selectFrom('databases').select('id').where('server_id', '=', doomed.id).execute(),
    ).toEqual([]);
  });
});
