import { clientServerDatabaseItemSchema, clientServerDatabaseListSchema } from '@talon/shared';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import {
  connectMysql,
  connectPostgres,
  mysqlDatabaseExists,
  postgresDatabaseExists,
  postgresPasswordMatches,
  registerDatabaseHosts,
  uniqueDatabaseName,
} from '../../test-support/database-hosts.ts';
import { activityAbout, nodeAndEgg, serverRow, subuserClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { encrypt } from '../../lib/crypto.ts';
import { nowIso } from '../../lib/time.ts';
import type { DatabaseHostWithNodes } from './database-hosts.repository.ts';

// The client database API (reference §3.3 "Databases") against the real MariaDB (127.0.0.1:3306)
// and PostgreSQL (127.0.0.1:5432) of this machine: every database made here is really created,
// connected to, and dropped. Names are unique per run, so parallel runs share the hosts safely.
let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let strangerClient: TestClient;
let server: Server;
let strangerServer: Server;
let hosts: { mysql: DatabaseHostWithNodes; postgresql: DatabaseHostWithNodes };
const made: { database: string; engine: 'mysql' | 'postgresql' }[] = [];

const path = (s: Pick<Server, 'uuid_short'> = server) => `/api/client/servers/${s.uuid_short}/databases`;
const newServer = (values: Partial<Server> = {}) =>
  serverRow(panel.ctx, node, egg, owner.id, { database_limit: 20, ...values });
/** `field|rule|detail` of every entry of a 422 body. */
const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
};
const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;

/** The node is served by exactly this host from now on (the host choice is random among linked ones). */
async function serveWith(engine: 'mysql' | 'postgresql') {
  const db = panel.ctx.db.db;
  await db.deleteFrom('database_host_nodes').execute();
  await db
    .insertInto('database_host_nodes')
    .values({ database_host_id: hosts[engine].host.id, node_id: node.id })
    .execute();
}

async function create(s: Server, body: Record<string, unknown>, client = ownerClient) {
  const res = await client.post(path(s), body);
  if (res.status === 200) {
    const host = res.body.attributes.host.port === 3306 ? 'mysql' : 'postgresql';
    made.push({ database: res.body.attributes.name, engine: host });
  }
  return res;
}

function credentials(res: Res) {
  const a = clientServerDatabaseItemSchema.parse(res.body).attributes;
  const rel = a.relationships?.password;
  if (!rel || rel.object !== 'database_password') throw new Error('no password in the answer');
  return { username: a.username, password: rel.attributes.password, database: a.name, id: a.id };
}

const rowCount = async (s: Pick<Server, 'id'>) =>
  (await panel.ctx.db.db.selectFrom('databases').select('id').where('server_id', '=', s.id).execute()).length;

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46300, 46339]));
  owner = await panel.createUser({ username: 'owner' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await newServer();
  strangerServer = await serverRow(panel.ctx, node, egg, stranger.id, { database_limit: 5 });
  ownerClient = await panel.signedIn(owner);
  strangerClient = await panel.signedIn(stranger);
  hosts = await registerDatabaseHosts(panel.ctx, [node.id]);
  await serveWith('mysql');
}, 60_000);

afterAll(async () => {
  // Whatever a failing test left behind on the shared hosts.
  for (const row of await panel.ctx.db.db.selectFrom('databases').select('id').execute()) {
    const { databaseServices } = await import('./databases.wiring.ts');
    const { databases } = databaseServices({ ...panel.ctx, activity: panel.ctx.services.activity });
    await databases.delete(await databases.findById(String(row.id)), {
      userId: null,
      apiKeyId: null,
      ip: null,
    });
  }
  await panel?.close();
});

describe('POST /databases on MariaDB', () => {
  it('creates a real database and user: the user connects from an allowed address and creates a table', async () => {
    // A period, as the spec's form allows (the original's alpha_dash refused it).
    const name = `${uniqueDatabaseName()}.plugin`;
    const res = await create(server, { database: name, remote: '%' });
    expect(res.status, res.text).toBe(200);
    const a = res.body.attributes;
    expect(a).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{8,}$/u),
      host: { address: '127.0.0.1', port: 3306 },
      name: `s${server.id}_${name}`,
      username: expect.stringMatching(new RegExp(`^u${server.id}_[A-Za-z0-9]{10}$`, 'u')),
      connections_from: '%',
      max_connections: 0,
      relationships: {
        password: {
          object: 'database_password',
          attributes: { password: expect.stringMatching(/^[A-Za-z0-9!@=.+^]{24}$/u) },
        },
      },
    });
    expect(Object.keys(a)).toEqual([
      'id',
      'host',
      'name',
      'username',
      'connections_from',
      'max_connections',
      'relationships',
    ]);
    const c = await connectMysql(credentials(res));
    await c.query('CREATE TABLE players (id INT PRIMARY KEY, name VARCHAR(32))');
    await c.query('INSERT INTO players VALUES (1, ?)', ['steve']);
    const [rows] = await c.query('SELECT name FROM players');
    expect(rows).toEqual([{ name: 'steve' }]);
    // Rights on this database only.
    await expect(c.query('CREATE DATABASE talon_not_allowed')).rejects.toThrow(/denied/iu);
    await c.end();
    const events = await activityAbout(panel.ctx, { type: 'server', id: server.id });
    expect(events.at(-1)).toMatchObject({ event: 'server:database.create', properties: { name: a.name } });
  });

  it("a user reaches only its own database: `_` in the name is no GRANT wildcard for a sibling's", async () => {
    const stem = uniqueDatabaseName('w');
    const mine = credentials(await create(server, { database: `${stem}_x`, remote: '%' }));
    const sibling = credentials(await create(server, { database: `${stem}Qx`, remote: '%' }));
    const c = await connectMysql(mine);
    await expect(c.query(`USE \`${sibling.database}\``)).rejects.toThrow(/Access denied/u);
    await c.end();
  });

  it('a user whose remote does not match the address it connects from is refused', async () => {
    const res = await create(server, { database: uniqueDatabaseName(), remote: '10.0.0.%' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.connections_from).toBe('10.0.0.%');
    await expect(connectMysql(credentials(res))).rejects.toThrow(/Access denied/u);
  });

  it('cuts the prefixed name to 48 characters', async () => {
    const name = `${uniqueDatabaseName('long')}${'x'.repeat(40)}`.slice(0, 48);
    const res = await create(server, { database: name, remote: '%' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.name).toBe(`s${server.id}_${name}`.slice(0, 48));
    expect(await mysqlDatabaseExists(res.body.attributes.name)).toBe(true);
  });

  it('refuses a name this server already uses (422, the reference message), keeping one database', async () => {
    const name = uniqueDatabaseName();
    expect((await create(server, { database: name, remote: '%' })).status).toBe(200);
    const before = await rowCount(server);
    expect(failures(await create(server, { database: name, remote: '%' }))).toEqual([
      'database|unique|The database name you have selected is already in use by this server.',
    ]);
    expect(await rowCount(server)).toBe(before);
  });

  it('answers 422 for each bad field with the reference messages, and creates nothing', async () => {
    const before = await rowCount(server);
    expect(failures(await create(server, {}))).toEqual([
      'database|required|The database field is required.',
      'remote|required|The remote field is required.',
    ]);
    expect(failures(await create(server, { database: 'ab', remote: '%' }))).toEqual([
      'database|min|The database must be at least 3 characters.',
    ]);
    expect(failures(await create(server, { database: 'a'.repeat(49), remote: '%' }))).toEqual([
      'database|max|The database may not be greater than 48 characters.',
    ]);
    expect(failures(await create(server, { database: 'bad name;', remote: '%' }))).toEqual([
      'database|alpha_dash|The database may only contain letters, numbers, and dashes.',
    ]);
    expect(failures(await create(server, { database: 'café_db', remote: '%' }))).toEqual([
      'database|alpha_dash|The database may only contain letters, numbers, and dashes.',
    ]);
    expect(failures(await create(server, { database: 'gooddb', remote: "%' OR 1=1" }))).toEqual([
      'remote|regex|The remote format is invalid.',
    ]);
    expect(failures(await create(server, { database: 'gooddb', remote: 5 }))).toContain(
      'remote|string|The remote must be a string.',
    );
    expect(await rowCount(server)).toBe(before);
  });
});

describe('limits and host choice', () => {
  it('a limit of 0 allows none; a reached limit refuses the next one (400, the reference texts)', async () => {
    const none = await newServer({ database_limit: 0 });
    expectError(
      await create(none, { database: uniqueDatabaseName(), remote: '%' }),
      400,
      'TooManyDatabasesException',
      'Operation aborted: creating a new database would put this server over the defined limit.',
    );
    const one = await newServer({ database_limit: 1 });
    expect((await create(one, { database: uniqueDatabaseName(), remote: '%' })).status).toBe(200);
    expectError(
      await create(one, { database: uniqueDatabaseName(), remote: '%' }),
      400,
      'TooManyDatabasesException',
      'Operation aborted: creating a new database would put this server over the defined limit.',
    );
    expect(await rowCount(one)).toBe(1);
    const unlimited = await newServer({ database_limit: null });
    expect((await create(unlimited, { database: uniqueDatabaseName(), remote: '%' })).status).toBe(200);
  });

  it('with no host serving the node: any host when random placement is allowed, else 400', async () => {
    const s = await newServer();
    const db = panel.ctx.db.db;
    await db.deleteFrom('database_host_nodes').execute();
    try {
      const res = await create(s, { database: uniqueDatabaseName(), remote: '%' });
      expect(res.status, res.text).toBe(200);
      panel.ctx.config.clientDatabases.allowRandom = false;
      expectError(
        await create(s, { database: uniqueDatabaseName(), remote: '%' }),
        400,
        'NoSuitableDatabaseHostException',
        'No database host was found that meets the requirements for this server.',
      );
    } finally {
      panel.ctx.config.clientDatabases.allowRandom = true;
      await serveWith('mysql');
    }
  });

  it('PTERODACTYL_CLIENT_DATABASES_ENABLED=false answers a clear 400 (the original: a bare 500)', async () => {
    panel.ctx.config.clientDatabases.enabled = false;
    try {
      const before = await rowCount(server);
      expectError(
        await create(server, { database: uniqueDatabaseName(), remote: '%' }),
        400,
        'DatabaseClientFeatureNotEnabledException',
        'Databases cannot be created for servers on this panel: the operator has disabled it.',
      );
      expect(await rowCount(server)).toBe(before);
    } finally {
      panel.ctx.config.clientDatabases.enabled = true;
    }
  });

  it('an unreachable host: a clear 503, no row and nothing on any host', async () => {
    const at = nowIso();
    const dead = await panel.ctx.db.db
      .insertInto('database_hosts')
      .values({
        name: 'dead',
        engine: 'mysql',
        host: '127.0.0.1',
        port: 1,
        username: 'nobody',
        password: encrypt(panel.ctx.config.appKey, 'x'),
        max_databases: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const db = panel.ctx.db.db;
    await db.deleteFrom('database_host_nodes').execute();
    await db
      .insertInto('database_host_nodes')
      .values({ database_host_id: dead.id, node_id: node.id })
      .execute();
    try {
      const s = await newServer();
      const name = uniqueDatabaseName();
      expectError(
        await create(s, { database: name, remote: '%' }),
        503,
        'DatabaseHostException',
        'The database could not be created: The database host 127.0.0.1:1 could not be reached (ECONNREFUSED).',
      );
      expect(await rowCount(s)).toBe(0);
      expect(await mysqlDatabaseExists(`s${s.id}_${name}`)).toBe(false);
    } finally {
      await serveWith('mysql');
      await db.deleteFrom('database_hosts').where('id', '=', dead.id).execute();
    }
  });
});

describe('failures on the host leave nothing behind', () => {
  /** Makes `host` the only host serving the node for `work`, then restores the MariaDB one. */
  async function onlyHost(
    values: { username: string; password: string; port?: number },
    work: () => Promise<void>,
  ) {
    const at = nowIso();
    const db = panel.ctx.db.db;
    const row = await db
      .insertInto('database_hosts')
      .values({
        name: `raw-${uniqueDatabaseName()}`,
        engine: 'mysql',
        host: '127.0.0.1',
        port: values.port ?? 3306,
        username: values.username,
        password: encrypt(panel.ctx.config.appKey, values.password),
        max_databases: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('database_host_nodes').execute();
    await db
      .insertInto('database_host_nodes')
      .values({ database_host_id: row.id, node_id: node.id })
      .execute();
    try {
      await work();
    } finally {
      await serveWith('mysql');
      await db.deleteFrom('database_hosts').where('id', '=', row.id).execute();
    }
  }

  it('a host that fails half-way (it may create but not grant) keeps neither the database nor the user', async () => {
    // An admin account registered without the panel's check: CREATE and CREATE USER, no GRANT OPTION.
    const weak = `talon_half_${Math.random().toString(36).slice(2, 8)}`;
    const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
    await root.query('CREATE USER ?@? IDENTIFIED BY ?', [weak, '127.0.0.1', 'half-pass']);
    await root.query('GRANT CREATE, DROP, CREATE USER ON *.* TO ?@?', [weak, '127.0.0.1']);
    try {
      await onlyHost({ username: weak, password: 'half-pass' }, async () => {
        const s = await newServer();
        const name = uniqueDatabaseName();
        const res = await create(s, { database: name, remote: '%' });
        expect(res.status, res.text).toBe(502);
        expect(res.body.errors[0].code).toBe('DatabaseHostException');
        expect(await rowCount(s)).toBe(0);
        expect(await mysqlDatabaseExists(`s${s.id}_${name}`)).toBe(false);
        const [users] = await root.query('SELECT User FROM mysql.user WHERE User LIKE ?', [`u${s.id}\\_%`]);
        expect(users).toEqual([]);
      });
    } finally {
      await root.query('DROP USER IF EXISTS ?@?', [weak, '127.0.0.1']);
      await root.end();
    }
  });

  it('rotate and delete on an unreachable host answer 503 and keep the row and its password', async () => {
    await onlyHost({ username: 'nobody', password: 'x', port: 1 }, async () => {
      const s = await newServer();
      const hostRow = await panel.ctx.db.db
        .selectFrom('database_host_nodes')
        .select('database_host_id')
        .executeTakeFirstOrThrow();
      const at = nowIso();
      const stored = encrypt(panel.ctx.config.appKey, 'the-old-password');
      const row = await panel.ctx.db.db
        .insertInto('databases')
        .values({
          server_id: s.id,
          database_host_id: hostRow.database_host_id,
          database: `s${s.id}_gone`,
          username: `u${s.id}_gone`,
          remote: '%',
          password: stored,
          max_connections: 0,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = String(row.id);
      for (const res of [
        await ownerClient.post(`${path(s)}/${id}/rotate-password`),
        await ownerClient.delete(`${path(s)}/${id}`),
      ]) {
        expect(res.status, res.text).toBe(503);
        expect(res.body.errors[0].code).toBe('DatabaseHostException');
      }
      const after = await panel.ctx.db.db
        .selectFrom('databases')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(after.password).toBe(stored);
      await panel.ctx.db.db.deleteFrom('databases').where('id', '=', row.id).execute();
    });
  });

  it("a database of the same name already on the host (not the panel's) is refused and left alone", async () => {
    const s = await newServer();
    const name = uniqueDatabaseName();
    const foreign = `s${s.id}_${name}`;
    const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
    await root.query(`CREATE DATABASE \`${foreign}\``);
    try {
      const res = await create(s, { database: name, remote: '%' });
      expect(res.status, res.text).toBe(502);
      expect(res.body.errors[0].detail).toMatch(/database exists/u);
      expect(await rowCount(s)).toBe(0);
      expect(await mysqlDatabaseExists(foreign)).toBe(true);
    } finally {
      await root.query(`DROP DATABASE IF EXISTS \`${foreign}\``);
      await root.end();
    }
  });
});

describe('GET /databases', () => {
  it('lists the databases; include=password shows passwords only with database.view_password', async () => {
    const s = await newServer();
    const created = credentials(await create(s, { database: uniqueDatabaseName(), remote: '%' }));
    const plain = await ownerClient.get(path(s));
    expect(plain.status, plain.text).toBe(200);
    const list = clientServerDatabaseListSchema.parse(plain.body);
    expect(list.data.map((d) => d.attributes.name)).toEqual([created.database]);
    expect(list.data[0]?.attributes.relationships).toBeUndefined();

    const withPassword = await ownerClient.get(`${path(s)}?include=password`);
    expect(withPassword.body.data[0].attributes.relationships.password).toEqual({
      object: 'database_password',
      attributes: { password: created.password },
    });

    const reader = await subuserClient(panel, s, ['database.read']);
    const hidden = await reader.client.get(`${path(s)}?include=password`);
    expect(hidden.status).toBe(200);
    expect(hidden.body.data[0].attributes.relationships.password).toEqual({
      object: 'null_resource',
      attributes: null,
    });

    const viewer = await subuserClient(panel, s, ['database.read', 'database.view_password']);
    const shown = await viewer.client.get(`${path(s)}?include=password`);
    expect(shown.body.data[0].attributes.relationships.password.attributes.password).toBe(created.password);
  });
});

describe('rotate and delete on MariaDB', () => {
  it('rotate-password: the old password fails, the new one works', async () => {
    const s = await newServer();
    const old = credentials(await create(s, { database: uniqueDatabaseName(), remote: '%' }));
    const res = await ownerClient.post(`${path(s)}/${old.id}/rotate-password`);
    expect(res.status, res.text).toBe(200);
    const fresh = credentials(res);
    expect(fresh.password).not.toBe(old.password);
    await expect(connectMysql(old)).rejects.toThrow(/Access denied/u);
    const c = await connectMysql(fresh);
    await c.end();
    const events = await activityAbout(panel.ctx, { type: 'server', id: s.id });
    expect(events.at(-1)).toMatchObject({ event: 'server:database.rotate-password' });
    // database.update without view_password: rotated, but the new password is not shown.
    const rotator = await subuserClient(panel, s, ['database.update']);
    const hidden = await rotator.client.post(`${path(s)}/${old.id}/rotate-password`);
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.attributes.relationships.password).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    await expect(connectMysql(fresh)).rejects.toThrow(/Access denied/u);
  });

  it('delete: 204, the user cannot connect and the database is gone', async () => {
    const s = await newServer();
    const c = credentials(await create(s, { database: uniqueDatabaseName(), remote: '%' }));
    const res = await ownerClient.delete(`${path(s)}/${c.id}`);
    expect(res.status, res.text).toBe(204);
    await expect(connectMysql(c)).rejects.toThrow(/Access denied/u);
    expect(await mysqlDatabaseExists(c.database)).toBe(false);
    expect(await rowCount(s)).toBe(0);
    const events = await activityAbout(panel.ctx, { type: 'server', id: s.id });
    expect(events.at(-1)).toMatchObject({
      event: 'server:database.delete',
      properties: { name: c.database },
    });
  });
});

describe('PostgreSQL host', () => {
  it('creates a database its own role connects to and uses; rotate and delete work the same', async () => {
    await serveWith('postgresql');
    try {
      const s = await newServer();
      const res = await create(s, { database: uniqueDatabaseName(), remote: '%' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.attributes.host).toEqual({ address: '127.0.0.1', port: 5432 });
      const c = credentials(res);
      const client = await connectPostgres(c);
      await client.query('CREATE TABLE players (id int PRIMARY KEY, name text)');
      await client.query('INSERT INTO players VALUES (1, $1)', ['alex']);
      expect((await client.query('SELECT name FROM players')).rows).toEqual([{ name: 'alex' }]);
      await client.end();

      // Another server's role may not connect to it (CONNECT revoked from PUBLIC).
      const other = credentials(await create(s, { database: uniqueDatabaseName(), remote: '%' }));
      await expect(connectPostgres({ ...other, database: c.database })).rejects.toMatchObject({
        code: '42501',
      });

      // This machine's pg_hba.conf trusts 127.0.0.1 (any password logs in), so the passwords are
      // checked against the role's stored SCRAM verifier.
      expect(await postgresPasswordMatches(c.username, c.password)).toBe(true);
      const rotated = credentials(await ownerClient.post(`${path(s)}/${c.id}/rotate-password`));
      expect(await postgresPasswordMatches(c.username, c.password)).toBe(false);
      expect(await postgresPasswordMatches(c.username, rotated.password)).toBe(true);
      await (await connectPostgres(rotated)).end();

      expect((await ownerClient.delete(`${path(s)}/${c.id}`)).status).toBe(204);
      expect(await postgresDatabaseExists(c.database)).toBe(false);
      // The role is gone: not even a trusted address gets in.
      await expect(connectPostgres({ ...rotated, database: 'postgres' })).rejects.toMatchObject({
        code: '28000',
      });
    } finally {
      await serveWith('mysql');
    }
  });
});

describe('access', () => {
  it('each route needs its database.* permission (403) and changes nothing without it', async () => {
    const s = await newServer();
    const c = credentials(await create(s, { database: uniqueDatabaseName(), remote: '%' }));
    const nobody = await subuserClient(panel, s, ['control.console']);
    expectError(await nobody.client.get(path(s)), 403, ...FORBIDDEN);
    expectError(
      await nobody.client.post(path(s), { database: uniqueDatabaseName(), remote: '%' }),
      403,
      ...FORBIDDEN,
    );
    expectError(await nobody.client.post(`${path(s)}/${c.id}/rotate-password`), 403, ...FORBIDDEN);
    expectError(await nobody.client.delete(`${path(s)}/${c.id}`), 403, ...FORBIDDEN);
    const readOnly = await subuserClient(panel, s, ['database.read']);
    expectError(await readOnly.client.delete(`${path(s)}/${c.id}`), 403, ...FORBIDDEN);
    expect(await rowCount(s)).toBe(1);
    await (await connectMysql(c)).end();
  });

  it("another user's server, and another server's database, are 404", async () => {
    const mine = credentials(await create(server, { database: uniqueDatabaseName(), remote: '%' }));
    expect((await ownerClient.get(path(strangerServer))).status).toBe(404);
    expect(
      (await strangerClient.post(path(server), { database: uniqueDatabaseName(), remote: '%' })).status,
    ).toBe(404);
    expect((await strangerClient.delete(`${path(server)}/${mine.id}`)).status).toBe(404);
    const theirs = credentials(
      await create(strangerServer, { database: uniqueDatabaseName(), remote: '%' }, strangerClient),
    );
    expect((await ownerClient.delete(`${path(server)}/${theirs.id}`)).status).toBe(404);
    expect((await ownerClient.post(`${path(server)}/${theirs.id}/rotate-password`)).status).toBe(404);
    expect((await ownerClient.delete(`${path(server)}/nonexistent`)).status).toBe(404);
    await (await connectMysql(theirs)).end();
  });
});
