import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import {
  CLI_ACTOR,
  CliError,
  everything,
  optional,
  printTable,
  refusalsAsCliErrors,
  required,
  type Command,
} from './command.ts';

export async function findUser(ctx: AppContext, login: string): Promise<User> {
  const user = await ctx.repositories.users.findByLogin(login);
  if (!user) throw new CliError(`no user with the username or email "${login}" (user:list shows them)`);
  return user;
}

/** Accounts from the command line: the same services and rules as the API. */
export const userCommands: Record<string, Command> = {
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
    help: {
      email: 'their email address (sign-in and mail)',
      username: 'their username (sign-in)',
      password: 'their password, at least 8 characters',
      admin: 'make them a root admin (the admin area, every server)',
      'name-first': 'first name',
      'name-last': 'last name',
    },
    example:
      'npm run -s panel -- user:create --email ada@example.com --username ada --password "correct horse battery"',
    async run(ctx, v) {
      const { user } = await ctx.services.users.create({
        email: required(v, 'email'),
        username: required(v, 'username'),
        password: required(v, 'password'),
        root_admin: v.admin === true,
        name_first: optional(v, 'name-first') ?? null,
        name_last: optional(v, 'name-last') ?? null,
      });
      console.log(
        `Created user ${user.username} (${user.uuid})${user.root_admin ? ' as a root admin' : ''}.`,
      );
      return 0;
    },
  },
  'user:list': {
    summary: 'List the user accounts (id, username, email, admin, two-factor)',
    usage: '[--search TEXT]',
    options: { search: { type: 'string' } },
    help: { search: 'only users whose username, email or name contains TEXT (any case)' },
    example: 'npm run -s panel -- user:list --search example.com',
    async run(ctx, v) {
      const { rows } = await ctx.services.applicationUsers.list(
        everything({
          text: optional(v, 'search'),
          columns: ['username', 'email', 'name_first', 'name_last'],
        }),
      );
      printTable(
        ['ID', 'USERNAME', 'EMAIL', 'ADMIN', '2FA'],
        rows.map((u) => [
          String(u.id),
          u.username,
          u.email,
          u.root_admin ? 'yes' : 'no',
          u.use_totp ? 'on' : 'off',
        ]),
        'No users.',
      );
      return 0;
    },
  },
  'user:delete': {
    summary: 'Delete a user account that owns no servers',
    usage: '--user U',
    options: { user: { type: 'string' } },
    help: { user: 'the username or email of the account' },
    example: 'npm run -s panel -- user:delete --user ada',
    async run(ctx, v) {
      const user = await findUser(ctx, required(v, 'user'));
      await refusalsAsCliErrors(() => ctx.services.applicationUsers.delete(user.id, CLI_ACTOR));
      console.log(`Deleted user ${user.username} (${user.email}).`);
      return 0;
    },
  },
  'user:password': {
    summary: "Set a user's password and end their sessions",
    usage: '--user U --password P',
    options: { user: { type: 'string' }, password: { type: 'string' } },
    help: {
      user: 'the username or email of the account',
      password: 'the new password, at least 8 characters',
    },
    example: 'npm run -s panel -- user:password --user ada --password "a new long password"',
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
    help: { user: 'the username or email of the account' },
    example: 'npm run -s panel -- user:2fa-disable --user ada',
    async run(ctx, v) {
      const user = await findUser(ctx, required(v, 'user'));
      // The admin area's service: the secret and recovery codes go, and the change is logged.
      await ctx.services.applicationUsers.disableTwoFactor(user.id, CLI_ACTOR);
      console.log(`Two-factor authentication disabled for ${user.username}.`);
      return 0;
    },
  },
};
