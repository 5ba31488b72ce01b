import { buildApp } from './app.ts';
import { bootstrap, ensureBuiltInEggs, ensureFirstAdmin } from './bootstrap.ts';
import { ConfigError } from './config/config.ts';
import { startLocalDaemon } from './embedded/local-daemon.ts';
import { startBackupPrune } from './jobs/backup-prune.ts';
import { startScheduleRunner } from './jobs/schedule-runner.ts';
import { exitOnUnhandled } from './lib/unhandled.ts';

/**
 * The longest a stop may take before the panel exits anyway: the local daemon is killed at 12 s
 * (LOCAL_DAEMON_KILL_AFTER_MS), and `npm start` promises to be gone within 15 s of Ctrl+C.
 */
const STOP_DEADLINE_MS = 14_000;

/** The panel server: configuration, database, first admin, HTTP; stops cleanly on signals. */
async function main() {
  const ctx = await bootstrap();
  exitOnUnhandled(ctx.log);
  const admin = await ensureFirstAdmin(ctx);
  if (admin) {
    console.log(
      [
        '',
        '  First start: a root admin account was created. Sign in and change its password.',
        `  Admin user created: username=${admin.username} password=${admin.password}`,
        '  (This password is shown only this once.)',
        '',
      ].join('\n'),
    );
  }
  const eggs = await ensureBuiltInEggs(ctx);
  if (eggs > 0) ctx.log.info({ eggs }, 'built-in server templates imported');
  const app = await buildApp(ctx);
  const sweep = setInterval(() => {
    ctx.repositories.sessions.deleteExpired(new Date().toISOString()).catch((err: unknown) => {
      ctx.log.warn({ err }, 'could not delete expired sessions');
    });
  }, 3600_000);
  sweep.unref();
  const stopBackupPrune = startBackupPrune(ctx, ctx.log);
  const stopScheduleRunner = startScheduleRunner(ctx);

  let daemon: ReturnType<typeof startLocalDaemon> = Promise.resolve(null);
  let stopping = false;
  // Ctrl+C reaches every process of the group, and `npm start` and tsx may pass it on again: every
  // signal after the first is ignored instead of killing the panel half-way through its stop.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'stopping');
    setTimeout(() => {
      ctx.log.error({ signal }, 'stopping took too long; exiting anyway');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // The daemon first, while the panel still answers it (it reports its servers' states on stop).
    stopBackupPrune();
    // Tasks being sent finish; runs waiting for their next task are handed to another panel.
    await stopScheduleRunner().catch((err: unknown) => ctx.log.warn({ err }, 'could not stop the schedule runner'));
    await (await daemon.catch(() => null))?.stop();
    await app.close();
    await ctx.db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: ctx.config.port, host: ctx.config.host });
  console.log(`Panel listening on ${ctx.config.appUrl}`);
  // The daemon loads its servers from the panel, so it starts once the panel answers.
  if (!stopping) daemon = startLocalDaemon(ctx);
  await daemon;
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
