// `npm run bench -- runtime` (issue 25): the docker runtime beside the process runtime, in the same
// run, on the same machine. For each runtime one daemon process (the compiled daemon as `npm start`
// runs it, apps/daemon/dist/main.js, with the tests' panel stand-in as its panel) and SERVERS servers that run a tiny idle program (`echo`
// a line, then `sleep`); for docker, a private dockerd (host network, busybox image):
//   1. start → first console line: the time from the start request to the server's first output
//      line on its console socket (container create + start + attach, or a sandboxed process), for
//      the first SAMPLES servers, one after another;
//   2. stats cost: the daemon's CPU time per second per running server while all SERVERS run and
//      their stats are sampled every second (Docker's stats stream, or /proc and cgroups);
//   3. daemon memory: VmRSS of the daemon process with SERVERS idle servers running (goal ≤ 100 MB).
// Prints a table (process | docker | docker / process).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { daemonApi } from '../apps/daemon/src/test-support/daemon-process.ts';
import { startDockerEngine, type DockerEngine } from '../apps/daemon/src/test-support/docker-engine.ts';
import { fixtureServer, TOKEN, TOKEN_ID, writeDaemonFiles } from '../apps/daemon/src/test-support/harness.ts';
import { signToken } from '../apps/daemon/src/test-support/jwt-sign.ts';
import { RemoteStandIn } from '../apps/daemon/src/test-support/remote-stand-in.ts';

const SERVERS = Number(process.env.BENCH_RUNTIME_SERVERS ?? 50);
const SAMPLES = 10;
// A registry on a loopback port where nothing listens: each start's pull fails at once without a
// lookup off 127.0.0.0/8 (as a registry that is down), and the imported copy is used.
const IMAGE = '127.0.0.1:9/talon-bench/busybox:runtime';
const CPU_WINDOW_MS = 10_000;
const SETTLE_MS = 4_000;
const CLOCK_TICKS = 100;
type Runtime = 'process' | 'docker';
const ROOT = path.resolve(import.meta.dirname, '..');

interface DaemonProcess {
  url: string;
  child: ChildProcess;
  remote: RemoteStandIn;
  api: (method: string, p: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
  dispose: () => Promise<void>;
}

/** The compiled daemon on its own directories, the panel stand-in as its panel; `config` is merged in. */
async function startDaemon(config: Record<string, unknown>): Promise<DaemonProcess> {
  const remote = new RemoteStandIn(TOKEN_ID, TOKEN);
  const { root, configFile } = await writeDaemonFiles(await remote.start());
  const raw = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, Record<string, unknown>>;
  raw.system = { ...raw.system, sftp: { bind_port: 0 } };
  for (const [k, v] of Object.entries(config))
    raw[k] = Array.isArray(v) ? (v as never) : { ...(raw[k] ?? {}), ...(v as object) };
  await writeFile(configFile, JSON.stringify(raw, null, 2));
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'apps/daemon/dist/main.js'), '--config', configFile],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /"msg":"daemon listening".*?"url":"([^"]+)"|"url":"([^"]+)".*?"msg":"daemon listening"/u.exec(
        text,
      );
      if (m) resolve((m[1] ?? m[2])!);
    });
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}:\n${text}`)));
  });
  return {
    url,
    child,
    remote,
    api: daemonApi(url),
    async dispose() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      await remote.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function procStatus(pid: number): Promise<{ rssKiB: number; cpuMs: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the "pid (comm) " prefix.
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { rssKiB: Number(/^VmRSS:\s+(\d+) kB/mu.exec(status)![1]), cpuMs: (ticks * 1000) / CLOCK_TICKS };
}

function server(uuid: string, port: number) {
  const s = fixtureServer(uuid);
  s.settings.invocation = 'echo "Done (ready on $SERVER_PORT)"; exec sleep 100000';
  s.settings.skip_egg_scripts = true;
  s.settings.container = { image: IMAGE };
  s.settings.allocations = {
    force_outgoing_ip: false,
    default: { ip: '127.0.0.1', port },
    mappings: { '127.0.0.1': [port] },
  };
  (s.settings.build as { disk_space: number }).disk_space = 0;
  s.process_configuration.stop = { type: 'signal', value: 'SIGTERM' };
  return s;
}

/** Start request → first `console output` frame on the server's console socket, in ms. */
async function firstLineMs(daemon: DaemonProcess, uuid: string): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const token = await signToken(TOKEN, {
    scope: 'websocket',
    iss: 'http://bench.invalid',
    aud: [daemon.url],
    jti: `bench-${uuid}`,
    iat: now,
    nbf: now - 300,
    exp: now + 600,
    server_uuid: uuid,
    permissions: ['*'],
    user_uuid: randomUUID(),
  });
  const ws = new WebSocket(`${daemon.url.replace(/^http/u, 'ws')}/api/servers/${uuid}/ws`, {
    origin: 'http://bench.invalid',
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      let t0 = 0;
      const timer = setTimeout(() => reject(new Error(`no console line from ${uuid} in 60 s`)), 60_000);
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ event: 'auth', args: [token] })));
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { event: string; args?: string[] };
        if (m.event === 'auth success') {
          t0 = performance.now();
          ws.send(JSON.stringify({ event: 'set state', args: ['start'] }));
        } else if (m.event === 'console output' && t0 > 0 && m.args?.[0]?.includes('Done (')) {
          clearTimeout(timer);
          resolve(performance.now() - t0);
        }
      });
    });
  } finally {
    ws.close();
  }
}

interface Figures {
  firstLineMedian: number;
  firstLineP90: number;
  cpuMsPerServerSecond: number;
  rssMiB: number;
  bootAllSeconds: number;
}

async function measure(runtime: Runtime, engine: DockerEngine): Promise<Figures> {
  const daemon = await startDaemon({
    allowed_origins: ['*'],
    runtime: { stats_interval_ms: 1000, ...(runtime === 'docker' ? { driver: 'docker' } : {}) },
    ...(runtime === 'docker' ? { docker: { host: engine.host, network: { network_mode: 'host' } } } : {}),
  });
  try {
    const uuids = Array.from({ length: SERVERS }, () => randomUUID());
    const base = 30_000 + Math.floor(Math.random() * 1000) * 10;
    for (const [i, uuid] of uuids.entries()) {
      daemon.remote.servers.set(uuid, server(uuid, base + i));
      const res = await daemon.api('POST', '/api/servers', { uuid, start_on_completion: false });
      if (res.status !== 202) throw new Error(`create ${uuid}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    await until(
      'the installs',
      async () => uuids.every((u) => daemon.remote.installReports.some((r) => r.uuid === u)),
      120_000,
    );

    const times: number[] = [];
    for (const uuid of uuids.slice(0, SAMPLES)) times.push(await firstLineMs(daemon, uuid));
    times.sort((a, b) => a - b);

    const t0 = Date.now();
    for (const uuid of uuids.slice(SAMPLES)) {
      const res = await daemon.api('POST', `/api/servers/${uuid}/power`, { action: 'start' });
      if (res.status !== 202 && res.status !== 204) throw new Error(`start ${uuid}: ${res.status}`);
    }
    await until(
      'every server running',
      async () => {
        const list = (await daemon.api('GET', '/api/servers')).body as { state: string }[];
        return list.filter((s) => s.state === 'running').length === SERVERS;
      },
      180_000,
    );
    const bootAllSeconds = (Date.now() - t0) / 1000;

    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const pid = daemon.child.pid!;
    const before = await procStatus(pid);
    await new Promise((r) => setTimeout(r, CPU_WINDOW_MS));
    const after = await procStatus(pid);
    const rss: number[] = [];
    for (let i = 0; i < 5; i++) {
      rss.push((await procStatus(pid)).rssKiB);
      await new Promise((r) => setTimeout(r, 300));
    }
    rss.sort((a, b) => a - b);
    return {
      firstLineMedian: times[Math.floor(times.length / 2)]!,
      firstLineP90: times[Math.min(times.length - 1, Math.floor(times.length * 0.9))]!,
      cpuMsPerServerSecond: (after.cpuMs - before.cpuMs) / (CPU_WINDOW_MS / 1000) / SERVERS,
      rssMiB: rss[2]! / 1024,
      bootAllSeconds,
    };
  } finally {
    await daemon.dispose();
    // A daemon that stops leaves its containers running (issue 25 item 5): the bench removes them.
    if (runtime === 'docker') {
      const containers = await engine.docker.listContainers({ all: true });
      await Promise.all(containers.map((c) => engine.docker.getContainer(c.Id).remove({ force: true })));
    }
  }
}

const started = Date.now();
const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (build.status !== 0) throw new Error('the server build failed');
const engine = await startDockerEngine();
try {
  await engine.importBusybox(IMAGE);
  const figures: Record<Runtime, Figures> = {
    process: await measure('process', engine),
    docker: await measure('docker', engine),
  };
  const rows: [string, (f: Figures) => number, string][] = [
    ['start → first console line, median', (f) => f.firstLineMedian, 'ms'],
    ['start → first console line, p90', (f) => f.firstLineP90, 'ms'],
    [`${SERVERS - SAMPLES} more started, until all running`, (f) => f.bootAllSeconds, 's'],
    ['daemon CPU per running server (stats each 1 s)', (f) => f.cpuMsPerServerSecond, 'ms/s'],
    [`daemon VmRSS, ${SERVERS} idle servers running`, (f) => f.rssMiB, 'MiB'],
  ];
  console.log(
    `runtime: the docker runtime beside the process runtime (${SERVERS} servers, first line of ${SAMPLES})`,
  );
  console.log(`  ${''.padEnd(50)}  ${'process'.padStart(12)}  ${'docker'.padStart(12)}  docker/process`);
  for (const [label, read, unit] of rows) {
    const cell = (r: Runtime) => `${read(figures[r]).toFixed(unit === 'ms/s' ? 2 : 1)} ${unit}`.padStart(12);
    const ratio = (read(figures.docker) / read(figures.process)).toFixed(2).padStart(14);
    console.log(`  ${label.padEnd(50)}  ${cell('process')}  ${cell('docker')}  ${ratio}`);
  }
  const goal = figures.docker.rssMiB <= 100 ? 'met' : 'NOT met';
  console.log(
    `  goal: daemon ≤ 100 MB with ${SERVERS} idle containers: ${goal} (${figures.docker.rssMiB.toFixed(1)} MiB)`,
  );
  console.log(`  (compiled daemon; whole run ${((Date.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await engine.stop();
}
process.exit(0);
