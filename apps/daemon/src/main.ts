import { createServer } from 'node:net';
import pino, { type Logger } from 'pino';
import { DAEMON_EXIT_DOCKER_UNUSABLE, DAEMON_EXIT_PORT_IN_USE, EXIT_WITH_STDIN_FLAG } from '@talon/shared';
import { prettyDestination, wantsPrettyLogs } from '@talon/shared/logging/pretty';
import { ConfigError, configPathFromArgs, loadConfigFile, type DaemonConfig } from './config/config.ts';
import { buildDaemon } from './daemon.ts';
import { logFatalErrors } from './fatal-errors.ts';
import { configure } from './configure.ts';
import { connectDocker, dockerEndpoint, whyDockerUnusable } from './runtime/docker-connection.ts';

const DAEMON_USAGE = `Usage: npm run daemon -- [--config PATH]
       npm run -s daemon -- configure --panel-url URL --token TOKEN [--config PATH]

Without a command: run the node daemon with its configuration file (--config, else
$TALON_DAEMON_CONFIG, else /etc/talon/daemon.json). \`configure\` writes that file from a setup token
made on the node's page of the panel's admin area (configure --help says more).

Example:
  npm run daemon -- --config /etc/talon/daemon.json`;

/**
 * `tsx apps/daemon/src/main.ts --config <file>` (or TALON_DAEMON_CONFIG): load the config, load the
 * servers from the panel, restore their states, serve the Wings API. SIGINT/SIGTERM stop each
 * server with its egg's stop command (killed after `system.shutdown_timeout` seconds) but keep
 * their recorded states, so the next boot starts them again.
 */
async function main(log: Logger): Promise<void> {
  let loaded;
  try {
    loaded = loadConfigFile(configPathFromArgs(process.argv.slice(2), process.env));
  } catch (err) {
    log.fatal(err instanceof ConfigError ? err.message : err);
    process.exit(2);
  }
  // Until the servers are up, a vanished panel needs no stopping: exit at once.
  let onParentGone = (): void => {
    log.warn('the panel that started this daemon is gone; exiting');
    process.exit(0);
  };
  if (process.argv.includes(EXIT_WITH_STDIN_FLAG)) watchParent(() => onParentGone());
  const { host, port } = loaded.config.api;
  if (port !== 0 && (await portInUse(host, port))) {
    // Before the boot, which resets the servers' states with the panel and starts them again: a
    // daemon that cannot serve must not do that at every attempt of its supervisor.
    log.fatal(
      { host, port },
      `the API port ${port} is already in use (another daemon, perhaps one an earlier panel left running?); not starting`,
    );
    process.exit(DAEMON_EXIT_PORT_IN_USE);
  }
  await sayRuntime(loaded.config, log);
  const daemon = await buildDaemon(loaded, { log, bootRetryMs: 5 * 60_000 });
  const url = await daemon.listen();
  log.info({ url }, 'daemon listening');
  // Without SFTP the node still serves its servers: say so loudly and carry on.
  await daemon.listenSftp().catch((err: Error) => log.error({ err }, 'SFTP server could not start'));
  const timeoutSeconds = loaded.config.system.shutdown_timeout;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      log.warn({ signal }, 'already stopping servers; waiting for them');
      return;
    }
    stopping = true;
    log.info(
      {
        signal,
        servers: daemon.manager.all().filter((s) => s.running).length,
        timeoutSeconds,
      },
      'stopping servers before exit',
    );
    void daemon.close().then(
      () => {
        log.info('daemon stopped');
        process.exit(0);
      },
      (err: Error) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  onParentGone = () => {
    log.warn('the panel that started this daemon is gone; stopping servers and exiting');
    stop('panel gone');
  };
}

/**
 * Says which runtime runs the servers. With `docker`, checks the engine first: a daemon that cannot
 * reach it exits (DAEMON_EXIT_DOCKER_UNUSABLE) with the reason and what to do, before the boot
 * would reset every server's state with the panel; its supervisor (systemd, the panel) tries again
 * later, which also covers a Docker engine that starts after the daemon.
 */
async function sayRuntime(config: DaemonConfig, log: Logger): Promise<void> {
  if (config.runtime.driver === 'process') {
    log.info({ runtime: 'process' }, 'runtime: servers run as processes on this host (bubblewrap, cgroups)');
    return;
  }
  const endpoint = dockerEndpoint(config.docker.host);
  const why = await whyDockerUnusable(connectDocker(endpoint), endpoint);
  if (why) {
    log.fatal(
      { runtime: 'docker', engine: endpoint.address },
      `runtime.driver is docker, but ${why}; not starting`,
    );
    process.exit(DAEMON_EXIT_DOCKER_UNUSABLE);
  }
  const network = config.docker.network.network_mode;
  log.info(
    { runtime: 'docker', engine: endpoint.address, network },
    `runtime: servers run in Docker containers (engine ${endpoint.address}, network ${network})`,
  );
}

/**
 * `--exit-with-stdin`: the panel's supervisor holds the other end of our stdin. The kernel closes
 * it however the panel ends (SIGKILL, OOM, crash), so its end is how a daemon learns that nobody
 * will stop it: it then stops like on SIGTERM instead of staying an orphan holding its ports.
 */
function watchParent(gone: () => void): void {
  let once = false;
  const fire = (): void => {
    if (once) return;
    once = true;
    gone();
  };
  process.stdin.on('data', () => undefined); // the panel never writes; reading is what sees the end
  process.stdin.once('end', fire);
  process.stdin.once('close', fire);
  process.stdin.once('error', fire);
}

/** Whether something already listens on the API port (checked by binding it for a moment). */
function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

const args = process.argv.slice(2);
if (args[0] === 'configure') {
  // `configure --panel-url … --token …`: write the config file from a setup token, then exit.
  configure(args.slice(1), process.env).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else if (args.includes('--help') || args.includes('-h')) {
  console.log(DAEMON_USAGE);
} else {
  startDaemon();
}

function startDaemon(): void {
  // LOG_LEVEL overrides the config's `debug` (the panel passes its own level to the local daemon).
  const log = pino(
    { level: process.env.LOG_LEVEL ?? 'info', base: { svc: 'daemon' } },
    wantsPrettyLogs(process.env.LOG_FORMAT, process.stdout.isTTY)
      ? prettyDestination((text) => process.stdout.write(text))
      : undefined,
  );
  logFatalErrors(log);
  main(log).catch((err: unknown) => {
    log.fatal({ err }, 'daemon failed to start');
    process.exit(1);
  });
}
