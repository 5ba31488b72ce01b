import { buildApp } from './app.ts';
import { bootstrap, ensureBuiltInEggs, ensureFirstAdmin } from './bootstrap.ts';
import { ConfigError } from './config/config.ts';
import { startLocalDaemon } from './embedded/local-daemon.ts';

/** The panel server: configuration, database, first admin, HTTP; stops cleanly on signals. */
async function main() {
  const ctx = await bootstrap();
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

  let daemon: Awaited<ReturnType<typeof startLocalDaemon>> = null;
  const stop = async (signal: string) => {
    ctx.log.info({ signal }, 'stopping');
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      daemon.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    await app.close();
    await ctx.db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: ctx.config.port, host: ctx.config.host });
  console.log(`Panel listening on ${ctx.config.appUrl}`);
  // The daemon loads its servers from the panel, so it starts once the panel answers.
  daemon = await startLocalDaemon(ctx);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
