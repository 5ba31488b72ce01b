import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuiltInEggs } from '../bootstrap.ts';
import { APPLICATION_RESOURCES } from '../modules/api-keys/api-keys.service.ts';
import { ALL_APPLICATION_RIGHTS, applicationClient as keyClientOf } from '../modules/application/testing.ts';
import { TestClient } from './client.ts';
import type { TestPanel } from './panel.ts';
import type { AppContext } from '../context.ts';
import type { Egg, Node, Server, Subuser, User } from '../db/types.ts';
import { ensureLocalNode } from '../embedded/local-node.ts';
import { decrypt } from '../lib/crypto.ts';
import { nowIso } from '../lib/time.ts';

/**
 * A client of the application API with a new root admin's application key; `permissions` are its
 * `r_*` bytes (default: read and write on everything).
 */
export async function applicationClient(
  panel: TestPanel,
  permissions: Partial<Record<(typeof APPLICATION_RESOURCES)[number], number>> = ALL_APPLICATION_RIGHTS,
): Promise<TestClient> {
  return keyClientOf(panel, await panel.createUser({ admin: true }), permissions);
}

/** A built-in egg by its exact name (the built-in eggs imported if needed). */
export async function builtInEgg(ctx: AppContext, name: string): Promise<Egg> {
  await ensureBuiltInEggs(ctx);
  return ctx.db.db.selectFrom('eggs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
}

/** The text of our own test egg shaped like the community's Java eggs (PTDL_v2, four variables). */
export const paperEggText = () =>
  readFileSync(
    path.resolve(import.meta.dirname, '../../../../packages/shared/test-fixtures/eggs/egg-paper.json'),
    'utf8',
  );

/** The Paper egg imported into `nestId` as `name` (names are unique in a nest); its id. */
export async function importPaperEgg(ctx: AppContext, nestId: number, name: string): Promise<number> {
  const file = paperEggText().replace('"name": "Paper"', `"name": "${name}"`);
  return (await ctx.services.eggs.import(file, nestId)).id;
}

/** The built-in game-server egg (imported if needed). */
export async function gameServerEgg(ctx: AppContext): Promise<Egg> {
  await ensureBuiltInEggs(ctx);
  return ctx.db.db
    .selectFrom('eggs')
    .selectAll()
    .where('name', 'like', '%Game Server%')
    .executeTakeFirstOrThrow();
}

/** The local node (no daemon process) with a few allocations, and the built-in game-server egg. */
export async function nodeAndEgg(
  ctx: AppContext,
  ports: [number, number],
): Promise<{ node: Node; egg: Egg }> {
  const { node } = await ensureLocalNode(ctx, { daemonPort: 18081, sftpPort: 12022, ports });
  return { node, egg: await gameServerEgg(ctx) };
}

/**
 * A server row on a free allocation of `node`, written straight to the database: for tests of the
 * panel alone (the daemon never hears of it).
 */
export async function serverRow(
  ctx: AppContext,
  node: Node,
  egg: Egg,
  ownerId: number,
  values: Partial<Server> = {},
  variable: (env: string, fallback: string) => string = (_env, fallback) => fallback,
): Promise<Server> {
  const allocation = await ctx.db.db
    .selectFrom('allocations')
    .selectAll()
    .where('node_id', '=', node.id)
    .where('server_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const variables = await ctx.repositories.eggs.variables(egg.id);
  const uuid = randomUUID();
  const at = nowIso();
  return ctx.repositories.servers.create(
    {
      external_id: null,
      uuid,
      uuid_short: uuid.slice(0, 8),
      node_id: node.id,
      name: 'Test server',
      description: '',
      status: null,
      skip_scripts: 0,
      owner_id: ownerId,
      memory: 512,
      swap: 0,
      disk: 1024,
      io: 500,
      cpu: 100,
      threads: null,
      oom_disabled: 1,
      allocation_id: allocation.id,
      nest_id: egg.nest_id,
      egg_id: egg.id,
      startup: egg.startup,
      image: 'talon/host-node:20',
      allocation_limit: 2,
      database_limit: 0,
      backup_limit: 0,
      installed_at: at,
      created_at: at,
      updated_at: at,
      ...values,
    },
    [allocation.id],
    variables.map((v) => ({ variableId: v.id, value: variable(v.env_variable, v.default_value) })),
  );
}

/**
 * Makes `user` a subuser of `server` with `permissions`, written straight to the database (the
 * subuser API and its activity log are left out of tests that only need the relation to exist).
 * `times` pins the row's timestamps for tests that assert them; `filePaths` limits the subuser's
 * file permissions to those folders (our extension).
 */
export async function addSubuser(
  ctx: AppContext,
  server: Pick<Server, 'id'>,
  user: Pick<User, 'id'>,
  permissions: readonly string[],
  times: { created_at?: string; updated_at?: string; filePaths?: readonly string[] } = {},
): Promise<Subuser> {
  const at = nowIso();
  return ctx.db.db
    .insertInto('subusers')
    .values({
      user_id: user.id,
      server_id: server.id,
      permissions: JSON.stringify(permissions),
      ...(times.filePaths ? { file_paths: JSON.stringify(times.filePaths) } : {}),
      created_at: times.created_at ?? at,
      updated_at: times.updated_at ?? at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A new user made a subuser of `server` with `permissions`, and a client signed in as them.
 * `user` picks the new account's name or password (SFTP tests sign in with it); `filePaths` limits
 * their file permissions to those folders.
 */
export async function subuserClient(
  panel: TestPanel,
  server: Pick<Server, 'id'>,
  permissions: readonly string[],
  opts: { user?: Parameters<TestPanel['createUser']>[0]; filePaths?: readonly string[] } = {},
): Promise<{ user: User; client: TestClient }> {
  const user = await panel.createUser(opts.user);
  await addSubuser(panel.ctx, server, user, permissions, { filePaths: opts.filePaths });
  return { user, client: await panel.signedIn(user) };
}

/** A client of `/api/remote` authenticated as `node`'s daemon (its token id and token). */
export function remoteClient(panel: TestPanel, node: Node): TestClient {
  return TestClient.withKey(
    panel.url,
    `${node.daemon_token_id}.${decrypt(panel.ctx.config.appKey, node.daemon_token)}`,
  );
}

/**
 * The activity entries about `subject` straight from the database, oldest first: event, actor id,
 * address, properties and every subject as `type:id`.
 */
export async function activityAbout(ctx: AppContext, subject: { type: string; id: number }) {
  const db = ctx.db.db;
  const rows = await db
    .selectFrom('activity_logs')
    .innerJoin('activity_log_subjects as s', 's.activity_log_id', 'activity_logs.id')
    .select(['activity_logs.id', 'event', 'actor_id', 'ip', 'properties', 'timestamp'])
    .where('s.subject_type', '=', subject.type)
    .where('s.subject_id', '=', subject.id)
    .orderBy('activity_logs.id')
    .execute();
  const subjects = rows.length
    ? await db
        .selectFrom('activity_log_subjects')
        .selectAll()
        .where(
          'activity_log_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('subject_type')
        .orderBy('subject_id')
        .execute()
    : [];
  return rows.map((r) => ({
    event: r.event,
    actor: r.actor_id,
    ip: r.ip,
    timestamp: r.timestamp,
    properties: JSON.parse(r.properties) as Record<string, unknown>,
    subjects: subjects
      .filter((s) => s.activity_log_id === r.id)
      .map((s) => `${s.subject_type}:${s.subject_id}`),
  }));
}

/**
 * A MariaDB database host row that is never contacted (port 1 would refuse anyway): for probes
 * the panel must answer before any call to the host. Its id.
 */
export async function unreachableDatabaseHost(ctx: AppContext, name: string): Promise<number> {
  const at = new Date().toISOString();
  const host = await ctx.db.db
    .insertInto('database_hosts')
    .values({
      name,
      engine: 'mysql',
      host: '127.0.0.1',
      port: 1,
      username: 'x',
      password: 'x',
      max_databases: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return host.id;
}

/** A server's database row on `hostId` (nothing is created on the host). Its id. */
export async function databaseRow(
  ctx: AppContext,
  row: { serverId: number; hostId: number; database: string; username: string },
): Promise<number> {
  const at = new Date().toISOString();
  const inserted = await ctx.db.db
    .insertInto('databases')
    .values({
      server_id: row.serverId,
      database_host_id: row.hostId,
      database: row.database,
      username: row.username,
      remote: '%',
      password: 'x',
      max_connections: 0,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}
