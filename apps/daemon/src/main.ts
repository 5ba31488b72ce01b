import pino from 'pino';
import { prettyDestination, wantsPrettyLogs } from '@talon/shared/logging/pretty';
import { ConfigError, configPathFromArgs, loadConfigFile } from './config/config.ts';
import { buildDaemon } from './daemon.ts';

/**
 * `tsx apps/daemon/src/main.ts --config <file>` (or TALON_DAEMON_CONFIG): load the config, load the
 * servers from the panel, restore their states, serve the Wings API. SIGINT/SIGTERM stop the
 * servers' processes but keep their recorded states, so the next boot restarts them.
 */
async function main(): Promise<void> {
  // LOG_LEVEL overrides the config's `debug` (the panel passes its own level to the local daemon).
  const pretty = wantsPrettyLogs(process.env.LOG_FORMAT, process.stdout.isTTY);
  const log = pino(
    { level: process.env.LOG_LEVEL ?? 'info', base: { svc: 'daemon' } },
    pretty ? prettyDestination((text) => process.stdout.write(text)) : undefined,
  );
  let loaded;
  try {
    loaded = loadConfigFile(configPathFromArgs(process.argv.slice(2), process.env));
  } catch (err) {
    log.fatal(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  const daemon = await buildDaemon(loaded, { log, bootRetryMs: 5 * 60_000 });
  const url = await daemon.listen();
  log.info({ url }, 'daemon listening');
  // Without SFTP the node still serves its servers: say so loudly and carry on.
  await daemon.listenSftp().catch((err: Error) => log.error({ err }, 'SFTP server could not start'));
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    void daemon.close().then(
      () => process.exit(0),
      (err: Error) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
