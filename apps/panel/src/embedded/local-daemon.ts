import { spawn } from 'node:child_process';
import path from 'node:path';
import { DAEMON_EXIT_DOCKER_UNUSABLE, DAEMON_EXIT_PORT_IN_USE, EXIT_WITH_STDIN_FLAG } from '@talon/shared';
import type { AppContext } from '../context.ts';
import { daemonEnvironment } from './daemon-env.ts';
import { ensureLocalNode, writeDaemonConfig } from './local-node.ts';
import { Supervisor, type Clock } from './supervisor.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * How long the panel waits for the local daemon after SIGTERM before it kills it: the daemon stops
 * its servers within its own stop timeout (written into its config, below this), and the panel's
 * whole shutdown stays under 15 s.
 */
export const LOCAL_DAEMON_KILL_AFTER_MS = 12_000;

/**
 * V8's young generation grows to 32 MB by default; the daemon mostly waits on I/O, and a cap of
 * 8 MB (4 MB per semi-space) takes about 15 MB off its resident memory for a few more, cheap,
 * minor collections (docs/benchmarks.md, daemon-rss).
 */
export const DAEMON_NODE_OPTIONS = ['--max-semi-space-size=4'];

/**
 * How the daemon is run: its bundle when the panel itself runs from its bundle (`npm start`, which
 * builds both), else its TypeScript sources with tsx (`npm run dev`, tests). This module's own URL
 * tells which: it ends in `.ts` only when the sources are being run.
 */
export function localDaemonArgs(config: string, moduleUrl = import.meta.url): string[] {
  const main = moduleUrl.endsWith('.ts')
    ? ['--import', 'tsx', 'apps/daemon/src/main.ts']
    : ['apps/daemon/dist/main.js'];
  return [...DAEMON_NODE_OPTIONS, ...main, '--config', config, EXIT_WITH_STDIN_FLAG];
}

/**
 * The daemon as a child process. Node runs it directly (with tsx loaded by `--import` for the
 * sources, not through the tsx command), so the pid the supervisor watches and signals is the
 * daemon's own: a wrapper would leave the real daemon running, holding its ports, when it is killed.
 * Its stdin is a pipe the panel never writes: when the panel dies, however it dies, the kernel
 * closes it and the daemon stops its servers and exits (`--exit-with-stdin`) instead of staying an
 * orphan that holds the ports the next panel's daemon needs.
 */
export function spawnLocalDaemon(config: string, env: Record<string, string>) {
  return spawn(process.execPath, localDaemonArgs(config), {
    cwd: root,
    stdio: ['pipe', 'inherit', 'inherit'],
    env,
  });
}

/** Words for the exits the daemon explains by its status, for the supervisor's log. */
export function explainDaemonExit(code: number | null): string | undefined {
  if (code === DAEMON_EXIT_PORT_IN_USE)
    return (
      `its API port (LOCAL_DAEMON_PORT) is in use, perhaps by a daemon an earlier panel left running: ` +
      'stop that process or choose another port; trying again later'
    );
  if (code === DAEMON_EXIT_DOCKER_UNUSABLE)
    return (
      'LOCAL_RUNTIME is docker, but the Docker engine cannot be used (the daemon logged why just before): ' +
      'start Docker, correct DOCKER_HOST, or set LOCAL_RUNTIME=process; trying again later'
    );
  return undefined;
}

/**
 * The embedded default (`npm start`): on the first start a local node with a block of
 * allocations; on every start its configuration file is written and its daemon started as a
 * supervised child process (started again when it dies, stopped with the panel). Only on a
 * database whose first node is the local one, so a scaled-out panel never starts daemons of its own.
 */
export async function startLocalDaemon(
  ctx: AppContext,
  opts: { clock?: Clock } = {},
): Promise<Supervisor | null> {
  const { localDaemon } = ctx.config;
  if (!localDaemon.enabled) return null;
  const nodes = await ctx.db.db.selectFrom('nodes').select(['id', 'name']).orderBy('id').limit(1).execute();
  if (nodes.length > 0 && nodes[0]?.name !== 'Local') return null;
  const { node, created } = await ensureLocalNode(ctx, {
    daemonPort: localDaemon.port,
    sftpPort: localDaemon.sftpPort,
    ports: localDaemon.ports,
  });
  if (created) {
    ctx.log.info(
      { ports: localDaemon.ports },
      'created the local node with allocations on 127.0.0.1 (set LOCAL_DAEMON=false to run without it)',
    );
  }
  const config = writeDaemonConfig(ctx, node, path.join(ctx.config.dataDir, 'daemon'));
  const env = daemonEnvironment(process.env, {
    logLevel: ctx.config.logLevel,
    logFormat: ctx.config.logFormat,
  });
  const supervisor = new Supervisor({
    name: 'the local daemon',
    spawn: () => spawnLocalDaemon(config, env),
    log: ctx.log,
    clock: opts.clock,
    killAfterMs: LOCAL_DAEMON_KILL_AFTER_MS,
    explainExit: explainDaemonExit,
  });
  supervisor.start();
  return supervisor;
}
