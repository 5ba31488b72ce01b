import { databaseServices } from '../modules/databases/databases.wiring.ts';
import type { AppContext } from '../context.ts';
import { CLI_ACTOR as SYSTEM, CliError, refusalsAsCliErrors, type Command } from './command.ts';

function services(ctx: AppContext) {
  return databaseServices({ ...ctx, activity: ctx.services.activity });
}

function hostId(v: Record<string, unknown>): number {
  const id = v.id;
  if (typeof id !== 'string' || !/^\d{1,9}$/u.test(id))
    throw new CliError('--id takes a database host id (database-host:list shows them)');
  return Number(id);
}

/** Database hosts from the command line, with the API's rules (the same service). */
export const databaseHostCommands: Record<string, Command> = {
  'database-host:create': {
    summary: 'Register a MySQL/MariaDB or PostgreSQL server where server databases are created',
    usage:
      '--name N --host H --port P --username U --password P [--engine mysql|postgresql] [--max-databases N] [--node ID …]',
    options: {
      name: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      engine: { type: 'string' },
      'max-databases': { type: 'string' },
      node: { type: 'string', multiple: true },
    },
    help: {
      name: 'a name for it',
      host: 'its address (host name or IP)',
      port: 'its port (MySQL/MariaDB 3306, PostgreSQL 5432)',
      username: 'an account allowed to create databases and users',
      password: "that account's password (stored encrypted)",
      engine: 'mysql (default; MySQL or MariaDB) or postgresql',
      'max-databases': 'most databases the panel creates there (default: no limit)',
      node: 'a node id whose servers use this host; repeat for several',
    },
    example:
      'npm run -s panel -- database-host:create --name main --host 10.0.0.5 --port 3306 --username talon --password secret --node 1',
    async run(ctx, v) {
      const created = await refusalsAsCliErrors(() =>
        services(ctx).hosts.create(
          {
            name: v.name,
            host: v.host,
            port: v.port,
            username: v.username,
            password: v.password,
            ...(v.engine === undefined ? {} : { engine: v.engine }),
            max_databases: v['max-databases'] ?? null,
            node_ids: v.node ?? [],
          },
          SYSTEM,
        ),
      );
      const { host } = created;
      console.log(
        `Created database host ${host.id} "${host.name}" (${host.engine}, ${host.host}:${host.port}); the panel connected and may create databases and users there.`,
      );
      return 0;
    },
  },
  'database-host:list': {
    summary: 'List the database hosts',
    usage: '',
    options: {},
    help: {},
    example: 'npm run -s panel -- database-host:list',
    async run(ctx) {
      const { rows } = await services(ctx).hosts.list(1, 1000);
      for (const { host, nodeIds } of rows) {
        const nodes = nodeIds.length > 0 ? `nodes ${nodeIds.join(',')}` : 'no nodes';
        const limit = host.max_databases === null ? 'no limit' : `max ${host.max_databases} databases`;
        console.log(
          `${String(host.id).padStart(4)}  ${host.name}  ${host.engine}  ${host.username}@${host.host}:${host.port}  ${nodes}  ${limit}`,
        );
      }
      return 0;
    },
  },
  'database-host:delete': {
    summary: 'Delete a database host that has no databases left',
    usage: '--id ID',
    options: { id: { type: 'string' } },
    help: { id: 'the database host id (database-host:list shows them)' },
    example: 'npm run -s panel -- database-host:delete --id 2',
    async run(ctx, v) {
      const id = hostId(v);
      await refusalsAsCliErrors(() => services(ctx).hosts.delete(id, SYSTEM));
      console.log(`Deleted database host ${id}.`);
      return 0;
    },
  },
};
