import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { ensureLocalNode, writeDaemonConfig } from './local-node.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * The embedded default (`npm start`): on the first start a local node with a block of
 * allocations; on every start its configuration file is written and its daemon started as a child
 * process, which stops with the panel. Only on a database whose first node is the local one, so a
 * scaled-out panel never starts daemons of its own.
 */
export async function startLocalDaemon(ctx: AppContext): Promise<ChildProcess | null> {
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
  const child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    ['apps/daemon/src/main.ts', '--config', config],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, LOG_LEVEL: ctx.config.logLevel },
    },
  );
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') ctx.log.error({ code, signal }, 'the local daemon stopped');
  });
  return child;
}
