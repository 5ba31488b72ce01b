import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../../db/types.ts';
import type { TestClient } from '../../../test-support/client.ts';
import {
  connectPostgres,
  postgresAdmin,
  postgresDatabaseExists,
  uniqueDatabaseName,
} from '../../../test-support/database-hosts.ts';
import { nodeAndEgg, serverRow } from '../../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../../test-support/panel.ts';
import { applicationClient, FULL } from '../../application/testing.ts';

// Issue 23 item 9: a PostgreSQL 15 host whose account is no superuser, only CREATEDB and
// CREATEROLE (what a hosting operator hands a panel), failed with "must be member of role" when
// the panel made a database owned by the role it had just created. The host here is such an
// account, made on the local PostgreSQL for this file and dropped at the end.

const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const hostAdmin = `talon_hostadmin_${suffix}`;
const hostPassword = `pw-${suffix}`;

let panel: TestPanel;
let api: TestClient;
let server: Server;

/** Runs `work` as the PostgreSQL superuser of the tests. */
async function asSuperuser<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const a = postgresAdmin();
  const c = new pg.Client({
    host: a.host,
    port: a.port,
    user: a.username,
    password: a.password,
    database: 'postgres',
  });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await asSuperuser((c) =>
    c.query(
      `CREATE ROLE ${c.escapeIdentifier(hostAdmin)} WITH LOGIN CREATEDB CREATEROLE NOSUPERUSER PASSWORD ${c.escapeLiteral(hostPassword)}`,
    ),
  );
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [46440, 46449]);
  const admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_database_hosts: FULL, r_server_databases: FULL });
  const owner = await panel.createUser();
  server = await serverRow(panel.ctx, node, egg, owner.id, { database_limit: 5 });
}, 60_000);

afterAll(async () => {
  await panel?.close();
  // Whatever a failed run left behind: the databases and roles the host admin made, then the admin.
  await asSuperuser(async (c) => {
    const owned = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba
        WHERE pg_has_role($1, r.oid, 'MEMBER') AND r.rolname <> $1`,
      [hostAdmin],
    );
    for (const { datname } of owned.rows)
      await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(datname)} WITH (FORCE)`);
    await c.query(`DROP OWNED BY ${c.escapeIdentifier(hostAdmin)}`).catch(() => undefined);
    await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(hostAdmin)}`);
  });
});

describe('a PostgreSQL host account with CREATEDB and CREATEROLE only', () => {
  it('is accepted as a host, creates a server database its user can use, and deletes it', async () => {
    const a = postgresAdmin();
    const host = await api.post('/api/application/database-hosts', {
      name: `pg-limited-${suffix}`,
      engine: 'postgresql',
      host: a.host,
      port: a.port,
      username: hostAdmin,
      password: hostPassword,
    });
    expect(host.status, host.text).toBe(201);

    const res = await api.post(`/api/application/servers/${server.id}/databases?include=password`, {
      database: uniqueDatabaseName(),
      remote: '%',
      host: host.body.attributes.id,
    });
    expect(res.status, res.text).toBe(201);
    const { id, database, username } = res.body.attributes as {
      id: number;
      database: string;
      username: string;
    };
    const password = res.body.attributes.relationships.password.attributes.password as string;
    const owner = await asSuperuser((c) =>
      c.query<{ owner: string }>(
        'SELECT r.rolname AS owner FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE d.datname = $1',
        [database],
      ),
    );
    expect(owner.rows).toEqual([{ owner: username }]);
    const user = await connectPostgres({ username, password, database });
    await user.query('CREATE TABLE worlds (id int)');
    await user.end();

    expect(
      (await api.post(`/api/application/servers/${server.id}/databases/${id}/reset-password`)).status,
    ).toBe(204);
    const deleted = await api.delete(`/api/application/servers/${server.id}/databases/${id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await postgresDatabaseExists(database)).toBe(false);
    const roles = await asSuperuser((c) => c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [username]));
    expect(roles.rowCount).toBe(0);
  });
});
