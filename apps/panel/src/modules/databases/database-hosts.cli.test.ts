import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { decrypt } from '../../lib/crypto.ts';
import { startTestCli, type TestCli } from '../../test-support/cli.ts';
import { mysqlAdmin, uniqueDatabaseName } from '../../test-support/database-hosts.ts';
import { databaseRow, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';

// database-host:create, :list and :delete as an operator runs them, against the real MariaDB.
let testCli: TestCli;
let ctx: AppContext;
const cli = (...args: string[]) => testCli.run(...args);

beforeAll(async () => {
  testCli = await startTestCli({ prefix: 'talon-cli-db-' });
  ctx = testCli.ctx;
}, 180_000);

afterAll(async () => {
  await testCli?.close();
});

describe('database-host CLI', () => {
  it('create checks the connection and stores the password encrypted; list shows it; delete follows the API rules', async () => {
    const admin = await mysqlAdmin();
    const { node, egg } = await nodeAndEgg(ctx, [46500, 46509]);
    const name = `cli-${uniqueDatabaseName()}`;
    const args = ['--host', admin.host, '--port', String(admin.port), '--username', admin.username];

    const refused = await cli(
      'database-host:create',
      '--name',
      name,
      ...args,
      '--password',
      'wrong-password',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `database-host:create: The database host 127.0.0.1:3306 denied access to "${admin.username}": check the username, password and the host the panel connects from.\n`,
    );
    const missing = await cli('database-host:create', '--name', name);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('The host field is required.');
    expect(await ctx.db.db.selectFrom('database_hosts').selectAll().execute()).toEqual([]);

    const created = await cli(
      'database-host:create',
      '--name',
      name,
      ...args,
      '--password',
      admin.password,
      '--node',
      String(node.id),
      '--max-databases',
      '5',
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const row = await ctx.db.db.selectFrom('database_hosts').selectAll().executeTakeFirstOrThrow();
    expect(created.stdout).toBe(
      `Created database host ${row.id} "${name}" (mysql, 127.0.0.1:3306); the panel connected and may create databases and users there.\n`,
    );
    expect(decrypt(ctx.config.appKey, row.password)).toBe(admin.password);

    const list = await cli('database-host:list');
    expect(list.stdout).toBe(
      `${String(row.id).padStart(4)}  ${name}  mysql  ${admin.username}@127.0.0.1:3306  nodes ${node.id}  max 5 databases\n`,
    );
    expect(list.stdout).not.toContain(admin.password);

    // A host with a database is kept.
    const server = await serverRow(
      ctx,
      node,
      egg,
      (
        await ctx.services.users.create({
          username: 'o',
          email: 'o@example.com',
          password: 'correct horse battery',
        })
      ).user.id,
    );
    const databaseId = await databaseRow(ctx, {
      serverId: server.id,
      hostId: row.id,
      database: 's1_x',
      username: 'u1_x',
    });
    const kept = await cli('database-host:delete', '--id', String(row.id));
    expect(kept).toMatchObject({
      code: 1,
      stderr:
        'database-host:delete: Cannot delete a database host that still has databases: delete its databases first.\n',
    });
    await ctx.db.db.deleteFrom('databases').where('id', '=', databaseId).execute();
    expect(await cli('database-host:delete', '--id', String(row.id))).toMatchObject({
      code: 0,
      stdout: `Deleted database host ${row.id}.\n`,
    });
    expect(await ctx.db.db.selectFrom('database_hosts').selectAll().execute()).toEqual([]);
    expect((await cli('database-host:delete', '--id', 'abc')).stderr).toBe(
      'database-host:delete: --id takes a database host id (database-host:list shows them)\n',
    );
  }, 180_000);
});
