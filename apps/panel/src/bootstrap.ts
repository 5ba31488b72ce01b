import type { Logger } from 'pino';
import { pino } from 'pino';
import { prettyDestination, wantsPrettyLogs } from '@talon/shared/logging/pretty';
import { loadConfig, type Config } from './config/config.ts';
import { createContext, type AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { BUILT_IN_NEST } from './modules/eggs/eggs.service.ts';

/** Config → database (migrated) → context. Shared by the server and the CLI. */
export async function bootstrap(opts: { log?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<AppContext> {
  const config: Config = loadConfig(opts.env);
  const pretty = wantsPrettyLogs(config.logFormat, process.stdout.isTTY);
  const log =
    opts.log ??
    pino(
      { level: config.logLevel },
      pretty ? prettyDestination((text) => process.stdout.write(text)) : undefined,
    );
  const db = openDatabase(config.databaseUrl);
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  const ctx = createContext(config, db, log);
  // The panel settings (database and environment) read once before the first request needs them.
  await ctx.services.settings.effective();
  return ctx;
}

/** On the first start: the built-in server templates (an operator's later edits are kept). */
export async function ensureBuiltInEggs(ctx: AppContext): Promise<number> {
  if (await ctx.repositories.eggs.findNestByName(BUILT_IN_NEST)) return 0;
  return (await ctx.services.eggs.importBuiltIns()).length;
}

/**
 * On the first start on an empty database: a root admin with a generated password, printed once.
 * Returns the credentials when it created them.
 */
export async function ensureFirstAdmin(
  ctx: AppContext,
): Promise<{ username: string; password: string } | null> {
  if ((await ctx.repositories.users.count()) > 0) return null;
  const { user, password } = await ctx.services.users.create({
    email: 'admin@example.com',
    username: 'admin',
    name_first: 'Admin',
    name_last: 'User',
    root_admin: true,
  });
  return { username: user.username, password };
}
