import type { ParseArgsConfig } from 'node:util';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { KEY_TYPE, APPLICATION_RESOURCES } from '../modules/api-keys/api-keys.service.ts';
import { writeFileSync } from 'node:fs';
import { nodeConfiguration } from '../modules/nodes/nodes.configuration.ts';
import { databaseHostCommands } from './database-host-commands.ts';
import { eggCommands } from './egg-commands.ts';

export class CliError extends Error {}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
export interface Command {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run: (ctx: AppContext, values: Values) => Promise<number>;
}

function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliError(`--${name} is required`);
  return v;
}

async function findUser(ctx: AppContext, login: string): Promise<User> {
  const user = await ctx.repositories.users.findByLogin(login);
  if (!user) throw new CliError(`no user with the username or email "${login}"`);
  return user;
}

export const commands: Record<string, Command> = {
  'user:create': {
    summary: 'Create a user account',
    usage: '--email E --username U --password P [--admin] [--name-first F --name-last L]',
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'name-first': { type: 'string' },
      'name-last': { type: 'string' },
    },
    async run(ctx, v) {
      const { user } = await ctx.services.users.create({
        email: required(v, 'email'),
        username: required(v, 'username'),
        password: required(v, 'password'),
        root_admin: v.admin === true,
        name_first: (v['name-first'] as string | undefined) ?? null,
        name_last: (v['name-last'] as string | undefined) ?? null,
      });
      console.log(
        `Created user ${user.username} (${user.uuid})${user.root_admin ? ' as a root admin' : ''}.`,
      );
      return 0;
    },
  },
  'user:password': {
    summary: "Set a user's password",
    usage: '--user U --password P',
    options: { user: { type: 'string' }, password: { type: 'string' } },
    async run(ctx, v) {
      const user = await findUser(ctx, required(v, 'user'));
      await ctx.services.users.setPassword(user, required(v, 'password'));
      await ctx.repositories.sessions.deleteOthersOfUser(user.id, null);
      console.log(`Password of ${user.username} changed; their sessions were ended.`);
      return 0;
    },
  },
  'user:2fa-disable': {
    summary: 'Turn off two-factor authentication for a user who lost their device',
    usage: '--user U',
    options: { user: { type: 'string' } },
    async run(ctx, v) {
      const user = await findUser(ctx, required(v, 'user'));
      await ctx.repositories.users.update(user.id, {
        use_totp: 0,
        totp_secret: null,
        totp_authenticated_at: null,
        totp_last_step: null,
      });
      await ctx.repositories.recoveryTokens.clear(user.id);
      console.log(`Two-factor authentication disabled for ${user.username}.`);
      return 0;
    },
  },
  migrate: {
    summary: 'Apply pending database migrations',
    usage: '',
    options: {},
    async run() {
      // bootstrap() has migrated already; saying so is the whole job.
      console.log('Database is up to date.');
      return 0;
    },
  },
  ...eggCommands,
  'node:configure': {
    summary: "Print (or write) a node's daemon configuration file",
    usage: '--node ID|NAME [--file PATH]',
    options: { node: { type: 'string' }, file: { type: 'string' } },
    async run(ctx, v) {
      const wanted = required(v, 'node');
      const node = await ctx.db.db
        .selectFrom('nodes')
        .selectAll()
        .where(/^\d+$/u.test(wanted) ? 'id' : 'name', '=', /^\d+$/u.test(wanted) ? Number(wanted) : wanted)
        .executeTakeFirst();
      if (!node) throw new CliError(`no node with the id or name "${wanted}"`);
      const text = `${JSON.stringify(nodeConfiguration(node, ctx.config.appKey, ctx.config.appUrl), null, 2)}\n`;
      const file = v.file as string | undefined;
      if (!file) {
        console.log(text.trimEnd());
        return 0;
      }
      // It holds the node's secret token: readable by its owner only.
      writeFileSync(file, text, { mode: 0o600 });
      console.error(`Wrote the configuration of node "${node.name}" to ${file}.`);
      return 0;
    },
  },
  'server:create': {
    summary: 'Create a server from an egg on a free allocation of a node',
    usage:
      '--owner U --egg ID --name N [--node ID] [--memory MiB] [--disk MiB] [--cpu %] [--env KEY=VALUE …]',
    options: {
      owner: { type: 'string' },
      egg: { type: 'string' },
      name: { type: 'string' },
      node: { type: 'string' },
      memory: { type: 'string', default: '1024' },
      disk: { type: 'string', default: '5120' },
      cpu: { type: 'string', default: '100' },
      env: { type: 'string', multiple: true },
    },
    async run(ctx, v) {
      const owner = await findUser(ctx, required(v, 'owner'));
      const eggId = Number(required(v, 'egg'));
      const egg = await ctx.repositories.eggs.findEgg(eggId);
      if (!egg) throw new CliError(`no egg with id ${eggId} (npm run panel -- egg:list shows them)`);
      let free = ctx.db.db.selectFrom('allocations').select('id').where('server_id', 'is', null);
      if (v.node) free = free.where('node_id', '=', Number(v.node));
      const allocation = await free.orderBy('id').executeTakeFirst();
      if (!allocation) throw new CliError('no free allocation: add allocations to the node first');
      const environment: Record<string, string> = {};
      for (const variable of await ctx.repositories.eggs.variables(egg.id)) {
        environment[variable.env_variable] = variable.default_value;
      }
      for (const pair of (v.env as string[] | undefined) ?? []) {
        const at = pair.indexOf('=');
        if (at < 1) throw new CliError(`--env takes KEY=VALUE, not "${pair}"`);
        environment[pair.slice(0, at)] = pair.slice(at + 1);
      }
      const image = Object.values(JSON.parse(egg.docker_images) as Record<string, string>)[0] ?? '';
      const server = await ctx.services.serverCreation.create(
        {
          name: required(v, 'name'),
          user: owner.id,
          egg: egg.id,
          docker_image: image,
          startup: egg.startup,
          environment,
          limits: { memory: Number(v.memory), swap: 0, disk: Number(v.disk), io: 500, cpu: Number(v.cpu) },
          feature_limits: { databases: 0, allocations: 1, backups: 1 },
          allocation: { default: allocation.id },
        },
        { userId: null, apiKeyId: null, ip: null },
      );
      console.log(`Created server "${server.name}" (${server.uuid_short}); it is installing now.`);
      return 0;
    },
  },
  'egg:list': {
    summary: 'List the eggs (server templates) and their ids',
    usage: '',
    options: {},
    async run(ctx) {
      const eggs = await ctx.db.db
        .selectFrom('eggs')
        .innerJoin('nests', 'nests.id', 'eggs.nest_id')
        .select(['eggs.id', 'eggs.name', 'nests.name as nest'])
        .orderBy('eggs.id')
        .execute();
      for (const e of eggs) console.log(`${String(e.id).padStart(4)}  ${e.name}  (${e.nest})`);
      return 0;
    },
  },
  'api-key:create': {
    summary: 'Create an API key and print it (and nothing else)',
    usage: '--user U --client|--application [--description D] [--allowed-ip IP …]',
    options: {
      user: { type: 'string' },
      client: { type: 'boolean', default: false },
      application: { type: 'boolean', default: false },
      description: { type: 'string' },
      'allowed-ip': { type: 'string', multiple: true },
    },
    async run(ctx, v) {
      if (v.client === v.application) throw new CliError('give exactly one of --client or --application');
      const user = await findUser(ctx, required(v, 'user'));
      const application = v.application === true;
      if (application && !user.root_admin) throw new CliError('application keys belong to root admins only');
      const { key, secret } = await ctx.services.apiKeys.create(
        user,
        application ? KEY_TYPE.application : KEY_TYPE.client,
        {
          description: v.description ?? 'Created from the command line',
          allowed_ips: v['allowed-ip'] ?? [],
        },
        application ? Object.fromEntries(APPLICATION_RESOURCES.map((r) => [r, 3])) : {},
      );
      console.log(`${key.identifier}${secret}`);
      return 0;
    },
  },
  ...databaseHostCommands,
};
