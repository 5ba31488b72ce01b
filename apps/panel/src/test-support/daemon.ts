import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { DaemonClient } from '../daemon-client/daemon-client.ts';
import type { Node } from '../db/types.ts';
import { ensureLocalNode, writeDaemonConfig } from '../embedded/local-node.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * The environment of a panel process run with its embedded local daemon: SQLite in `dataDir`,
 * free ports for the panel and SFTP, and five allocations from `allocation`.
 */
export async function embeddedPanelEnv(opts: {
  dataDir: string;
  allocation: number;
  daemonPort: number;
}): Promise<Record<string, string>> {
  return {
    ...process.env,
    DATA_DIR: opts.dataDir,
    DATABASE_URL: `sqlite:${path.join(opts.dataDir, 'panel.sqlite')}`,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOCAL_DAEMON_PORT: String(opts.daemonPort),
    LOCAL_SFTP_PORT: String(await freePort()),
    LOCAL_ALLOCATIONS: `${opts.allocation}-${opts.allocation + 4}`,
  };
}

export interface TestDaemon {
  node: Node;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * A real daemon process for a panel: the local node (with a few allocations on 127.0.0.1), its
 * configuration file, and `apps/daemon/src/main.ts` started on it. Resolves once it answers HTTP.
 */
export async function startTestDaemon(
  ctx: AppContext,
  allocations = 5,
  /** Extra keys of the daemon's `api` configuration (e.g. `remote_download`). */
  api: Record<string, unknown> = {},
): Promise<TestDaemon> {
  // Game-server ports below the OS's ephemeral range (32768+), where outgoing connections could
  // hold them, and apart from the browser tests' block (20000–29999) that runs beside this suite.
  const first = 10_000 + Math.floor(Math.random() * 8_000);
  const { node } = await ensureLocalNode(ctx, {
    daemonPort: await freePort(),
    sftpPort: await freePort(),
    ports: [first, first + allocations - 1],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'talon-daemon-'));
  const config = writeDaemonConfig(ctx, node, dir);
  if (Object.keys(api).length > 0) {
    const doc = JSON.parse(readFileSync(config, 'utf8')) as { api: Record<string, unknown> };
    writeFileSync(config, JSON.stringify({ ...doc, api: { ...doc.api, ...api } }), { mode: 0o600 });
  }
  // Node loads tsx itself: a SIGKILL then reaches the daemon, not a tsx wrapper that would leave it running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/daemon/src/main.ts', '--config', config], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const client = new DaemonClient(ctx.config.appKey);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.system(node);
      break;
    } catch (e) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`daemon did not start: ${(e as Error).message}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    node,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
