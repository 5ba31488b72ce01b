// Daemon memory with 50 idle servers, beside the same daemon with 0 servers, in the same run.
// One panel and one daemon process (`node --import tsx apps/daemon/src/main.ts`), VmRSS from
// /proc/<pid>/status of the daemon's own process:
//   1. fresh daemon, 0 servers (the baseline);
//   2. the same process after 50 servers were created and installed through the panel;
//   3. the daemon restarted: it boots with the 50 installed, stopped servers (the comparable figure);
//   4. the 50 servers started, each running one tiny idle process (`sleep`), confined as usual.
// Prints the figures and the ratio (3 / 1) last.
import { rssKiB, startStack, type CreatedServer } from './support/stack-client.ts';

const SERVERS = 50;
const SETTLE_MS = 4000;

/** Median of a few samples after the process has settled (the figure moves with GC). */
async function settledRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await rssKiB(pid));
    await new Promise((r) => setTimeout(r, 300));
  }
  return samples.sort((a, b) => a - b)[2]!;
}

async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

const started = Date.now();
const stack = await startStack({ allocations: SERVERS });
const mib = (kib: number) => `${(kib / 1024).toFixed(1).padStart(6)} MiB`;
try {
  const empty = await settledRss(stack.info.daemon.pid);

  // `sleep` is the tiny idle process of step 4; the echo is the egg's done string.
  const startup = 'echo App ready on port {{SERVER_PORT}}; exec sleep 100000';
  const t0 = Date.now();
  const servers: CreatedServer[] = await pool(
    Array.from({ length: SERVERS }, (_, i) => i),
    8,
    (i) => stack.createServer(i, startup),
  );
  await stack.waitInstalled(servers);
  const installSeconds = (Date.now() - t0) / 1000;
  const afterInstall = await settledRss(stack.info.daemon.pid);

  const daemon = await stack.restartDaemon();
  const booted = await settledRss(daemon.pid);

  const t1 = Date.now();
  const headers = { authorization: `Bearer ${stack.info.clientKey}`, accept: 'application/json' };
  await pool(servers, 8, async (s) => {
    const res = await fetch(`${stack.info.panelUrl}/api/client/servers/${s.identifier}/power`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ signal: 'start' }),
    });
    if (res.status !== 204) throw new Error(`start ${s.identifier}: ${res.status} ${await res.text()}`);
  });
  const daemonHeaders = { authorization: `Bearer ${stack.info.daemonToken}` };
  for (;;) {
    const list = (await (await fetch(`${daemon.url}/api/servers`, { headers: daemonHeaders })).json()) as {
      state: string;
    }[];
    const running = list.filter((s) => s.state === 'running').length;
    if (running === SERVERS) break;
    if (Date.now() - t1 > 60_000) throw new Error(`only ${running} of ${SERVERS} servers running after 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const startSeconds = (Date.now() - t1) / 1000;
  const running = await settledRss(daemon.pid);

  console.log(`daemon-rss: VmRSS of the daemon process (median of 5 samples after ${SETTLE_MS / 1000} s)`);
  console.log(`  0 servers, fresh boot (baseline)                ${mib(empty)}`);
  console.log(
    `  ${SERVERS} servers, same process after create+install   ${mib(afterInstall)}   (${SERVERS} installs took ${installSeconds.toFixed(1)} s)`,
  );
  console.log(`  ${SERVERS} idle servers, fresh boot                     ${mib(booted)}`);
  console.log(
    `  ${SERVERS} servers running a tiny process (sleep)      ${mib(running)}   (${SERVERS} starts took ${startSeconds.toFixed(1)} s)`,
  );
  console.log(
    `  per idle server: ${((booted - empty) / SERVERS).toFixed(0)} KiB; per running server: ${((running - empty) / SERVERS).toFixed(0)} KiB`,
  );
  console.log(`  ratio (${SERVERS} idle / 0 servers): ${(booted / empty).toFixed(2)}`);
  console.log(`  (whole run ${((Date.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await stack.stop();
}
// fetch's connection pool keeps this process alive for a while after everything has stopped.
process.exit(0);
