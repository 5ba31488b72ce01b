// Panel start-up, compiled (`npm start`: `node apps/panel/dist/main.js`, which runs the daemon's
// bundle) beside the TypeScript sources through tsx (`node --import tsx apps/panel/src/main.ts`, how
// `npm start` ran them before), in the same run. Each start: a panel with its local daemon on a
// data directory prepared once per mode (migrations done, local node created), so every measured
// start is a restart. Measured: spawn → first HTTP 200 on `/`; spawn → the daemon answering; VmRSS
// of the panel and of the daemon 4 s after both answered. Medians of RUNS starts per mode,
// alternating modes; the ratio (compiled / tsx) last.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureServerBuilt } from '../scripts/build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const SETTLE_MS = 4000;
const MODES = {
  tsx: ['--import', 'tsx', 'apps/panel/src/main.ts'],
  compiled: ['apps/panel/dist/main.js'],
};

if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  throw new Error('apps/web/dist is missing: run `npm run build` first');
}
await ensureServerBuilt();

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers `status`; the time it did, in ms since `t0`. */
async function answered(url, status, t0, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the panel exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === status) return performance.now() - t0;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 180_000) throw new Error(`${url} did not answer ${status} within 180 s`);
    await sleep(10);
  }
}

function rssKiB(pid) {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

/** The panel's local daemon: its one node child process. */
function daemonPid(panelPid) {
  const children = readFileSync(`/proc/${panelPid}/task/${panelPid}/children`, 'utf8').trim().split(' ');
  return Number(
    children.find((pid) => pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('daemon')),
  );
}

/** A data directory and ports per mode: the two panels never share state. */
async function setting() {
  const allocation = 44_000 + Math.floor(Math.random() * 400) * 10;
  return {
    dir: mkdtempSync(path.join(tmpdir(), 'talon-bench-startup-')),
    env: {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOCAL_DAEMON_PORT: String(await freePort()),
      LOCAL_SFTP_PORT: String(await freePort()),
      LOCAL_ALLOCATIONS: `${allocation}-${allocation + 4}`,
    },
  };
}

async function start(mode, { dir, env }) {
  const t0 = performance.now();
  const child = spawn(process.execPath, MODES[mode], {
    cwd: root,
    env: { ...process.env, ...env, DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  try {
    const panelMs = await answered(`http://127.0.0.1:${env.PORT}/`, 200, t0, child);
    const daemonMs = await answered(`http://127.0.0.1:${env.LOCAL_DAEMON_PORT}/api/system`, 401, t0, child);
    await sleep(SETTLE_MS);
    return { panelMs, daemonMs, panelRss: rssKiB(child.pid), daemonRss: rssKiB(daemonPid(child.pid)) };
  } catch (err) {
    throw new Error(`${mode}: ${err.message}\n${output}`);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const settings = { tsx: await setting(), compiled: await setting() };
const results = { tsx: [], compiled: [] };
try {
  for (const mode of Object.keys(MODES)) await start(mode, settings[mode]); // first start: migrations
  for (let i = 0; i < RUNS; i++) {
    for (const mode of Object.keys(MODES)) results[mode].push(await start(mode, settings[mode]));
  }
} finally {
  for (const s of Object.values(settings)) rmSync(s.dir, { recursive: true, force: true });
}

const median = (mode, key) => {
  const values = results[mode].map((r) => r[key]).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
};
const rows = [
  ['panel: spawn → first 200 on /', 'panelMs', (v) => `${v.toFixed(0)} ms`],
  ['daemon: spawn → answering', 'daemonMs', (v) => `${v.toFixed(0)} ms`],
  ['panel VmRSS', 'panelRss', (v) => `${(v / 1024).toFixed(1)} MiB`],
  ['daemon VmRSS', 'daemonRss', (v) => `${(v / 1024).toFixed(1)} MiB`],
];
console.log(`startup: medians of ${RUNS} restarts per mode (RSS ${SETTLE_MS / 1000} s after both answered)`);
console.log(`  ${''.padEnd(32)}  ${'tsx'.padStart(10)}  ${'compiled'.padStart(10)}  compiled/tsx`);
for (const [label, key, format] of rows) {
  const [a, b] = [median('tsx', key), median('compiled', key)];
  console.log(
    `  ${label.padEnd(32)}  ${format(a).padStart(10)}  ${format(b).padStart(10)}  ${(b / a).toFixed(2).padStart(12)}`,
  );
}
console.log(
  `  ratio (panel start-up, compiled / tsx): ${(median('compiled', 'panelMs') / median('tsx', 'panelMs')).toFixed(2)}`,
);
