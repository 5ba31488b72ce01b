// Console fan-out: a server printing lines as fast as it can, 10 websocket clients on the daemon's
// console socket; lines/s delivered and the latency from the line's creation (a monotonic stamp in
// the line text) to its arrival at a client. Beside it, in the same run, a plain `ws` broadcast of
// the same program's lines to 10 clients. The daemon throttles console output (2000 lines per 100 ms
// per server, the Wings rule), so the comparison users get is against a broadcast with the same cap;
// both are also run uncapped (the daemon restarted with the throttle raised). Ratios last.
// Processes: this one holds the 10 clients; the panel, the daemon, the baseline server and each flood
// program run in their own processes. The machine's CPUs are shared by all of them.
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { FLOOD_PREFIX, floodApp } from './support/flood-app.ts';
import { ownHelpers } from './support/owner.ts';
import { startScript } from './support/processes.ts';
import { startStack } from './support/stack-client.ts';

const CLIENTS = 10;
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 5) * 1000;
const DELAY_MS = 1000;
const CAP = 2000; // lines per 100 ms: the daemon's default throttle
const BUCKET_NS = 10_000; // latency histogram: 10 µs buckets up to 60 s
const BUCKETS = 6_000_000;

interface Result {
  lines: number;
  rate: number;
  perClient: number;
  p50: number;
  p99: number;
  delivered: number;
}

// performance.now() and process.hrtime() read the same monotonic clock: one offset converts.
const hrBase = Number(process.hrtime.bigint()) - performance.now() * 1e6;

/** Opens the sockets, runs `start`, collects every flood line until the stream goes quiet. */
async function measure(open: () => Promise<WebSocket[]>, start: (ws: WebSocket[]) => Promise<void>) {
  const hist = new Uint32Array(BUCKETS);
  const stats = Array.from({ length: CLIENTS }, () => ({ count: 0, first: 0, last: 0, maxSeq: -1 }));
  const sockets = await open();
  let lastAt = 0;
  sockets.forEach((ws, i) => {
    const s = stats[i]!;
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      const at = text.indexOf(FLOOD_PREFIX);
      if (at < 0) return;
      const now = performance.now();
      const a = at + FLOOD_PREFIX.length;
      const b = text.indexOf(' ', a);
      const c = text.indexOf(' ', b + 1);
      const seq = Number(text.slice(a, b));
      const latency = now * 1e6 + hrBase - Number(text.slice(b + 1, c));
      hist[Math.min(BUCKETS - 1, Math.max(0, Math.floor(latency / BUCKET_NS)))]!++;
      if (s.count === 0) s.first = now;
      s.count++;
      s.last = now;
      lastAt = now;
      if (seq > s.maxSeq) s.maxSeq = seq;
    });
  });
  await start(sockets);
  const began = performance.now();
  // Done when every client has seen lines and nothing arrived for a second (or at a hard limit).
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = performance.now();
    if (stats.every((s) => s.count > 0) && now - lastAt > 1000) break;
    if (now - began > DELAY_MS + DURATION_MS + 60_000)
      throw new Error(`the flood did not end in time: ${JSON.stringify(stats)} last ${now - lastAt} ms ago`);
  }
  for (const ws of sockets) ws.close();
  const lines = stats.reduce((n, s) => n + s.count, 0);
  const rate = stats.reduce((n, s) => n + (s.count - 1) / ((s.last - s.first) / 1000), 0);
  const quantile = (q: number) => {
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += hist[i]!;
      if (seen >= q * lines) return ((i + 1) * BUCKET_NS) / 1e6;
    }
    return Infinity;
  };
  const delivered = stats.reduce((n, s) => n + s.count / (s.maxSeq + 1), 0) / CLIENTS;
  return { lines, rate, perClient: rate / CLIENTS, p50: quantile(0.5), p99: quantile(0.99), delivered };
}

function connect(url: string, origin?: string): Promise<WebSocket> {
  const ws = new WebSocket(url, origin ? { origin } : {});
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const program = path.join(tmpdir(), `talon-bench-flood-${process.pid}.js`);
writeFileSync(program, floodApp(DURATION_MS, DELAY_MS));
ownHelpers();
const baseline = await startScript<{ url: string }>('bench/support/ws-broadcast.ts', [program]);
const stack = await startStack({ allocations: 1 });

async function raw(cap: number): Promise<Result> {
  return measure(
    () => Promise.all(Array.from({ length: CLIENTS }, () => connect(baseline.info.url))),
    async (sockets) => sockets[0]!.send(`start ${cap}`),
  );
}

try {
  const { info } = stack;
  const server = await stack.createServer(0);
  await stack.waitInstalled([server]);
  // The installer wrote a hello-world index.js; the daemon chowns the directory before each start.
  writeFileSync(path.join(info.daemonBase, server.uuid, 'index.js'), floodApp(DURATION_MS, DELAY_MS));
  const client = { authorization: `Bearer ${info.clientKey}`, accept: 'application/json' };
  const power = async (signal: string) => {
    const res = await fetch(`${info.panelUrl}/api/client/servers/${server.identifier}/power`, {
      method: 'POST',
      headers: { ...client, 'content-type': 'application/json' },
      body: JSON.stringify({ signal }),
    });
    if (res.status !== 204) throw new Error(`power ${signal}: ${res.status} ${await res.text()}`);
  };
  const daemonState = async () => {
    const res = await fetch(`${info.daemon.url}/api/servers/${server.uuid}`, {
      headers: { authorization: `Bearer ${info.daemonToken}` },
    });
    return ((await res.json()) as { state: string }).state;
  };

  const daemon = async (): Promise<Result> => {
    const result = await measure(
      async () => {
        const res = await fetch(`${info.panelUrl}/api/client/servers/${server.identifier}/websocket`, {
          headers: client,
        });
        const { data } = (await res.json()) as { data: { token: string; socket: string } };
        return Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            const ws = await connect(data.socket, info.panelUrl);
            const ok = new Promise<void>((resolve) =>
              ws.on('message', (m: Buffer) => m.toString().includes('"auth success"') && resolve()),
            );
            ws.send(JSON.stringify({ event: 'auth', args: [data.token] }));
            await ok;
            return ws;
          }),
        );
      },
      () => power('start'),
    );
    await power('stop');
    for (let i = 0; (await daemonState()) !== 'offline'; i++) {
      if (i > 100) throw new Error('the server did not stop');
      await new Promise((r) => setTimeout(r, 100));
    }
    return result;
  };

  const rawCapped = await raw(CAP);
  const ourCapped = await daemon();
  const rawFree = await raw(0);
  await stack.restartDaemon({ throttleLines: 1_000_000_000 });
  const ourFree = await daemon();

  const row = (label: string, r: Result) =>
    console.log(
      `  ${label.padEnd(38)} ${r.rate.toFixed(0).padStart(9)} ${r.perClient.toFixed(0).padStart(9)}` +
        ` ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(r.delivered * 100).toFixed(1).padStart(8)}%`,
    );
  console.log(
    `console-fanout: ${CLIENTS} websocket clients, ${DURATION_MS / 1000} s flood of ~90-byte lines, ${cpus().length} CPUs shared by flood program, server and clients`,
  );
  console.log(
    `  The daemon's throttle caps console output at ${CAP} lines / 100 ms per server (${CAP * 10} lines/s to each client);`,
  );
  console.log(
    `  lines past the cap are dropped (kept in the history only). "capped" rows apply the same rule.`,
  );
  console.log(
    `  ${''.padEnd(38)} ${'lines/s'.padStart(9)} ${'/client'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'of made'.padStart(9)}`,
  );
  row('raw ws broadcast, capped', rawCapped);
  row('daemon (default throttle)', ourCapped);
  row('raw ws broadcast, uncapped', rawFree);
  row('daemon, throttle raised to 1e9 lines', ourFree);
  if (ourCapped.perClient < CAP * 10 && ourCapped.delivered > 0.99)
    console.log(
      `  (the cap did not engage in this run: the pipeline alone stays under ${CAP * 10} lines/s per client, so the flood program was slowed by the full pipe, not throttled)`,
    );
  const ratio = (a: Result, b: Result) =>
    `lines/s ${(a.rate / b.rate).toFixed(2)}, p99 latency ${(a.p99 / b.p99).toFixed(2)}x`;
  console.log(`  ratio uncapped (daemon / raw ws): ${ratio(ourFree, rawFree)}`);
  console.log(`  ratio capped, what users get (daemon / raw ws): ${ratio(ourCapped, rawCapped)}`);
} finally {
  baseline.child.kill('SIGTERM');
  await stack.stop();
  rmSync(program, { force: true });
}
// fetch's connection pool keeps this process alive for a while after everything has stopped.
process.exit(0);
