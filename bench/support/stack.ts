// A panel (fresh SQLite database, built-in eggs, an application key and an owner with a client key)
// and a real daemon process for its local node, for the daemon benchmarks. Prints one JSON line
// (`StackInfo`) and serves until SIGTERM (or until its parent goes away). A loopback control API
// lets the benchmark restart the daemon: `POST {control}/daemon/restart` (body: optional
// `{throttleLines, daemon}`) answers the new `DaemonInfo`.
// argv[2]: JSON `{allocations?: number, throttleLines?: number, daemon?: 'compiled' | 'tsx'}`
// (throttleLines overrides the daemon's console throttle, `throttles.lines` per 100 ms; default:
// the daemon's own default). `daemon`: its bundle, as `npm start` runs it (the default, built
// first when stale), or its TypeScript sources through tsx (the baseline of daemon-rss).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuiltInEggs } from '../../apps/panel/src/bootstrap.ts';
import { DaemonClient, nodeUrl } from '../../apps/panel/src/daemon-client/daemon-client.ts';
import { localDaemonArgs } from '../../apps/panel/src/embedded/local-daemon.ts';
import { ensureLocalNode, writeDaemonConfig } from '../../apps/panel/src/embedded/local-node.ts';
import { APPLICATION_RESOURCES, KEY_TYPE } from '../../apps/panel/src/modules/api-keys/api-keys.service.ts';
import { freePort } from '../../apps/panel/src/test-support/daemon.ts';
import { startTestPanel } from '../../apps/panel/src/test-support/panel.ts';
import { exitWithOwner } from './owner.ts';

export interface DaemonInfo {
  /** the daemon's own node process (no tsx wrapper in between) */
  pid: number;
  url: string;
}

export interface StackInfo {
  panelUrl: string;
  controlUrl: string;
  daemon: DaemonInfo;
  /** node token: `Authorization: Bearer <token>` on the daemon's API */
  daemonToken: string;
  /** the daemon's `system.data`: server directories are `<daemonBase>/<uuid>` */
  daemonBase: string;
  applicationKey: string;
  clientKey: string;
  ownerId: number;
  eggs: { game: number; generic: number };
  allocations: number[];
}

const root = path.resolve(import.meta.dirname, '../..');
type DaemonMode = 'compiled' | 'tsx';
const opts = JSON.parse(process.argv[2] ?? '{}') as {
  allocations?: number;
  throttleLines?: number;
  daemon?: DaemonMode;
};
let daemonMode: DaemonMode = opts.daemon ?? 'compiled';
const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], {
  cwd: path.resolve(import.meta.dirname, '../..'),
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (built.status !== 0) throw new Error('scripts/build-server.mjs failed');

const panel = await startTestPanel({
  APP_API_CLIENT_RATELIMIT: '100000000',
  APP_API_APPLICATION_RATELIMIT: '100000000',
});
// The local node and its allocations, as the test daemon makes them; the daemon process is ours
// (started by Node itself, no wrapper, so that its pid is the daemon's own).
const count = opts.allocations ?? 5;
const first = 30000 + Math.floor(Math.random() * 20000);
const { node } = await ensureLocalNode(panel.ctx, {
  daemonPort: await freePort(),
  sftpPort: await freePort(),
  ports: [first, first + count - 1],
});
await ensureBuiltInEggs(panel.ctx);

const daemonDir = mkdtempSync(path.join(tmpdir(), 'talon-bench-daemon-'));
const configFile = writeDaemonConfig(panel.ctx, node, daemonDir);
function writeThrottle(lines: number): void {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  config.throttles = { lines, line_reset_interval: 100 };
  writeFileSync(configFile, JSON.stringify(config), { mode: 0o600 });
}
if (opts.throttleLines) writeThrottle(opts.throttleLines);
const daemonClient = new DaemonClient(panel.ctx.config.appKey);

let daemon: ChildProcess | null = null;
async function startDaemon(): Promise<DaemonInfo> {
  // BENCH_DAEMON_CPU_PROF=<dir>: each daemon process writes a V8 CPU profile there when it exits.
  const dir = process.env.BENCH_DAEMON_CPU_PROF;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  // compiled: exactly what `npm start`'s panel runs; tsx: how it ran the daemon before.
  const main =
    daemonMode === 'tsx'
      ? ['--import', 'tsx', 'apps/daemon/src/main.ts', '--config', configFile]
      : localDaemonArgs(configFile, 'file:///bundle.js');
  // BENCH_DAEMON_NODE_ARGS: extra Node options for the daemon (experiments with V8 flags).
  const extra = (process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...profile, ...extra, ...main];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // BENCH_DAEMON_LOG=<file>: the daemon's output is appended there too.
  if (process.env.BENCH_DAEMON_LOG) {
    const log = createWriteStream(process.env.BENCH_DAEMON_LOG, { flags: 'a' });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  daemon = child;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await daemonClient.system(node);
      return { pid: child.pid!, url: nodeUrl(node) };
    } catch (e) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`daemon did not start: ${(e as Error).message}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function stopDaemon(): Promise<void> {
  const child = daemon;
  daemon = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

const admin = await panel.createUser({ admin: true, username: 'benchadmin', email: 'admin@example.com' });
const app = await panel.ctx.services.apiKeys.create(
  admin,
  KEY_TYPE.application,
  { description: 'bench' },
  Object.fromEntries(APPLICATION_RESOURCES.map((r) => [r, 3])),
);
const owner = await panel.createUser({ username: 'benchowner', email: 'owner@example.com' });
const client = await panel.ctx.services.apiKeys.create(owner, KEY_TYPE.client, { description: 'bench' });
const eggs = await panel.ctx.db.db.selectFrom('eggs').select(['id', 'name']).execute();
const eggId = (name: string) => eggs.find((e) => e.name === name)!.id;
const allocations = await panel.ctx.db.db
  .selectFrom('allocations')
  .select('id')
  .where('node_id', '=', node.id)
  .orderBy('id')
  .execute();

const control = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/daemon/restart') {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const next = JSON.parse(body || '{}') as { throttleLines?: number; daemon?: DaemonMode };
      if (next.daemon) daemonMode = next.daemon;
      void stopDaemon()
        .then(() => {
          if (next.throttleLines) writeThrottle(next.throttleLines);
          return startDaemon();
        })
        .then(
          (info) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(info)),
          (err: Error) => res.writeHead(500).end(err.message),
        );
    });
    return;
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const address = control.address();

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  control.close();
  await stopDaemon();
  await panel.close();
  rmSync(daemonDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
exitWithOwner(() => void shutdown());

const info: StackInfo = {
  panelUrl: panel.url,
  controlUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  daemon: await startDaemon(),
  daemonToken: daemonClient.token(node),
  daemonBase: node.daemon_base,
  applicationKey: app.key.identifier + app.secret,
  clientKey: client.key.identifier + client.secret,
  ownerId: owner.id,
  eggs: { game: eggId('Node.js Game Server'), generic: eggId('Generic Node.js App') },
  allocations: allocations.map((a) => a.id),
};
console.log(JSON.stringify(info));
