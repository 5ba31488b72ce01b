import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import {
  connectMysqlAdmin,
  registerDatabaseHosts,
  uniqueDatabaseName,
} from '../../test-support/database-hosts.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { databaseServices } from './databases.wiring.ts';

// CVE-2025-69198 / CVE-2026-35202: parallel creates raced past the limits (count, then create on
// the host, then insert). Eight requests at once through real HTTP against a limit of one must
// leave exactly one row, one database and one user on the real MariaDB host (127.0.0.1:3306).
let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let client: TestClient;

const PARALLEL = 8;
const SYSTEM = { userId: null, apiKeyId: null, ip: null };

/** The node is served by a new MariaDB host only, with `maxDatabases`; its id. */
async function freshHost(maxDatabases: number | null): Promise<number> {
  const { mysql: host } = await registerDatabaseHosts(panel.ctx, []);
  const db = panel.ctx.db.db;
  await db
    .updateTable('database_hosts')
    .set({ max_databases: maxDatabases })
    .where('id', '=', host.host.id)
    .execute();
  await db.deleteFrom('database_host_nodes').execute();
  await db
    .insertInto('database_host_nodes')
    .values({ database_host_id: host.host.id, node_id: node.id })
    .execute();
  return host.host.id;
}

/** `PARALLEL` creates at once, each with its own name starting with `prefix`. */
function createAtOnce(servers: Server[], prefix: string): Promise<Res[]> {
  return Promise.all(
    Array.from({ length: PARALLEL }, (_, i) => {
      const s = servers[i % servers.length]!;
      return client.post(`/api/client/servers/${s.uuid_short}/databases`, {
        database: `${prefix}n${i}`,
        remote: '%',
      });
    }),
  );
}

/** Databases on the MariaDB host whose names contain `prefix`, and the users granted on them. */
async function onHost(prefix: string): Promise<{ databases: string[]; users: string[] }> {
  const c = await connectMysqlAdmin();
  try {
    const like = `%\\_${prefix}n%`;
    const [dbs] = await c.query(
      'SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?',
      [like],
    );
    const [users] = await c.query('SELECT DISTINCT User AS n FROM mysql.db WHERE Db LIKE ?', [like]);
    return {
      databases: (dbs as { n: string }[]).map((r) => r.n),
      users: (users as { n: string }[]).map((r) => r.n),
    };
  } finally {
    await c.end();
  }
}

const rowsOf = async (servers: Server[]) =>
  panel.ctx.db.db
    .selectFrom('databases')
    .selectAll()
    .where(
      'server_id',
      'in',
      servers.map((s) => s.id),
    )
    .execute();

/** Every 200 and the errors of the rest, counted by their code. */
function outcome(results: Res[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const key =
      r.status === 200 ? '200' : `${r.status} ${(r.body as { errors: { code: string }[] }).errors[0]!.code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

beforeAll(async () => {
  // Only the host serving the node counts (no fallback to the hosts of earlier tests).
  panel = await startTestPanel({ PTERODACTYL_CLIENT_DATABASES_ALLOW_RANDOM: 'false' });
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46340, 46379]));
  owner = await panel.createUser({ username: 'owner' });
  client = await panel.signedIn(owner);
}, 60_000);

afterAll(async () => {
  // Drops on the shared host whatever the tests made (every row's database and user).
  if (panel) {
    const { databases } = databaseServices({ ...panel.ctx, activity: panel.ctx.services.activity });
    for (const row of await panel.ctx.db.db.selectFrom('databases').select('id').execute()) {
      await databases.delete(await databases.findById(String(row.id)), SYSTEM);
    }
  }
  await panel?.close();
});

describe('database limits under parallel creates (CVE-2025-69198, CVE-2026-35202)', () => {
  it('8 parallel creates against database_limit 1: one 200, seven TooManyDatabasesException, one row, one database and user on MariaDB', async () => {
    await freshHost(null);
    const server = await serverRow(panel.ctx, node, egg, owner.id, { database_limit: 1 });
    const prefix = uniqueDatabaseName('race');
    const results = await createAtOnce([server], prefix);
    expect(outcome(results)).toEqual({ '200': 1, '400 TooManyDatabasesException': PARALLEL - 1 });
    const loser = results.find((r) => r.status !== 200)!;
    expectError(
      loser,
      400,
      'TooManyDatabasesException',
      'Operation aborted: creating a new database would put this server over the defined limit.',
    );
    const rows = await rowsOf([server]);
    expect(rows).toHaveLength(1);
    const host = await onHost(prefix);
    expect(host.databases).toEqual([rows[0]!.database]);
    expect(host.users).toEqual([rows[0]!.username]);
  });

  it("8 parallel creates on four servers against the host's max_databases 1: one 200, one database on the host", async () => {
    const hostId = await freshHost(1);
    const servers = [];
    for (let i = 0; i < 4; i++)
      servers.push(await serverRow(panel.ctx, node, egg, owner.id, { database_limit: 5 }));
    const prefix = uniqueDatabaseName('hostrace');
    const results = await createAtOnce(servers, prefix);
    expect(outcome(results)).toEqual({ '200': 1, '400 NoSuitableDatabaseHostException': PARALLEL - 1 });
    const rows = await rowsOf(servers);
    expect(rows.map((r) => r.database_host_id)).toEqual([hostId]);
    const host = await onHost(prefix);
    expect(host.databases).toEqual([rows[0]!.database]);
    expect(host.users).toEqual([rows[0]!.username]);
  });
});
