import { KEY_TYPE, APPLICATION_RESOURCES } from '../modules/api-keys/api-keys.service.ts';
import { CliError, everything, required, type Command } from './command.ts';
import { databaseHostCommands } from './database-host-commands.ts';
import { eggCommands } from './egg-commands.ts';
import { eggTestCommands } from './egg-test-command.ts';
import { findNode, nodeCommands } from './node-commands.ts';
import { findUser, userCommands } from './user-commands.ts';

export { CliError, type Command } from './command.ts';

/** Every command of `npm run panel -- <command>`, in the order `--help` lists them. */
export const commands: Record<string, Command> = {
  ...userCommands,
  migrate: {
    summary: 'Apply pending database migrations',
    usage: '',
    options: {},
    help: {},
    example: 'npm run -s panel -- migrate',
    async run() {
      // bootstrap() has migrated already; saying so is the whole job.
      console.log('Database is up to date.');
      return 0;
    },
  },
  ...nodeCommands,
  ...eggCommands,
  ...eggTestCommands,
  'server:create': {
    summary: 'Create a server from an egg on a free allocation of a node',
    usage:
      '--owner U --egg ID --name N [--node ID|NAME] [--memory MiB] [--disk MiB] [--cpu %] [--env KEY=VALUE …]',
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
    help: {
      owner: 'the username or email of the owner',
      egg: 'the egg id (egg:list shows them)',
      name: 'the server name',
      node: 'a node id or name; its first free allocation is used (default: the first free one of any node)',
      memory: 'memory limit, MiB (default 1024)',
      disk: 'disk limit, MiB (default 5120)',
      cpu: 'CPU limit, percent of one core (default 100)',
      env: "a value of one of the egg's variables; repeat for several",
    },
    example:
      'npm run -s panel -- server:create --owner ada --egg 1 --name "Ada\'s world" --memory 2048 --env SERVER_JARFILE=server.jar',
    async run(ctx, v) {
      const owner = await findUser(ctx, required(v, 'owner'));
      const eggId = Number(required(v, 'egg'));
      const egg = await ctx.repositories.eggs.findEgg(eggId);
      if (!egg) throw new CliError(`no egg with id ${eggId} (npm run panel -- egg:list shows them)`);
      const nodeIds = v.node
        ? [(await findNode(ctx, String(v.node))).id]
        : (await ctx.services.nodes.list(everything())).rows.map((n) => n.id);
      const allocation = (await ctx.repositories.allocations.forNodes(nodeIds)).find(
        (a) => a.server_id === null,
      );
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
    help: {
      user: 'the username or email of the key owner',
      client: 'a client key (ptlc_…): what the user may do',
      application: 'an application key (ptla_…) with every right; the owner must be a root admin',
      description: 'what the key is for',
      'allowed-ip': 'only this address or network (CIDR) may use the key; repeat for several',
    },
    example: 'KEY=$(npm run -s panel -- api-key:create --user admin --application --description billing)',
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
