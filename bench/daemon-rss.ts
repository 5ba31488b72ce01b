// Daemon memory with 50 idle servers beside 0 servers, and the compiled daemon (`npm start`:
// `node apps/daemon/dist/main.js`) beside the TypeScript sources run through tsx (`node --import
// tsx apps/daemon/src/main.ts`, how `npm start` ran it before), all in the same run. One panel; the
// daemon process is restarted in one mode or the other on the same data. VmRSS from
// /proc/<pid>/status of the daemon's own process:
//   1. 0 servers, fresh boot;
//   2. 50 servers created and installed through the panel (compiled daemon, same process);
//   3. fresh boot with the 50 installed, stopped servers (the comparable figure);
//   4. the 50 servers started, each running one tiny idle process (`sleep`), confined as usual; the
//      other mode's figure is taken after a restart, which starts them again.
// Prints a table (tsx | compiled | compiled / tsx) and the ratio of the target row last.
import { rssKiB, startStack, type CreatedServer, type Stack } from './support/stack-client.ts';

const SERVERS = 50;
const SETTLE_MS = 4000;
type Mode = 'tsx' | 'compiled';

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

/** Resolves once the daemon reports every server running (after a start or a restoring boot). */
async function allRunning(stack: Stack): Promise<number> {
  const t = Date.now();
  const headers = { authorization: `Bearer ${stack.info.daemonToken}` };
  for (;;) {
    const res = await fetch(`${stack.info.daemon.url}/api/servers`, { headers });
    const list = (await res.json()) as { state: string }[];
    const running = list.filter((s) => s.state === 'running').length;
    if (running === SERVERS) return (Date.now() - t) / 1000;
    if (Date.now() - t > 60_000) throw new Error(`only ${running} of ${SERVERS} servers running after 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const started = Date.now();
const stack = await startStack({ allocations: SERVERS, daemon: 'tsx' });
const mib = (kib: number) => `${(kib / 1024).toFixed(1).padStart(6)} MiB`;
const rows: { label: string; figures: Partial<Record<Mode, number>>; note?: string }[] = [];
async function measure(label: string, mode: Mode, note?: string): Promise<void> {
  let row = rows.find((r) => r.label === label);
  if (!row) rows.push((row = { label, figures: {} }));
  row.figures[mode] = await settledRss(stack.info.daemon.pid);
  if (note) row.note = note;
}
try {
  await measure('0 servers, fresh boot', 'tsx');
  await stack.restartDaemon({ daemon: 'compiled' });
  await measure('0 servers, fresh boot', 'compiled');

  // `sleep` is the tiny idle process of step 4; the echo is the egg's done string.
  const startup = 'echo App ready on port {{SERVER_PORT}}; exec sleep 100000';
  const t0 = Date.now();
  const servers: CreatedServer[] = await pool(
    Array.from({ length: SERVERS }, (_, i) => i),
    8,
    (i) => stack.createServer(i, startup),
  );
  await stack.waitInstalled(servers);
  const installs = `${SERVERS} installs took ${((Date.now() - t0) / 1000).toFixed(1)} s`;
  await measure(`${SERVERS} servers, same process after create+install`, 'compiled', installs);

  const idle = `${SERVERS} idle servers, fresh boot`;
  await stack.restartDaemon({ daemon: 'tsx' });
  await measure(idle, 'tsx');
  await stack.restartDaemon({ daemon: 'compiled' });
  await measure(idle, 'compiled');

  const headers = { authorization: `Bearer ${stack.info.clientKey}`, accept: 'application/json' };
  const t1 = Date.now();
  await pool(servers, 8, async (s) => {
    const res = await fetch(`${stack.info.panelUrl}/api/client/servers/${s.identifier}/power`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ signal: 'start' }),
    });
    if (res.status !== 204) throw new Error(`start ${s.identifier}: ${res.status} ${await res.text()}`);
  });
  await allRunning(stack);
  const starts = `${SERVERS} starts took ${((Date.now() - t1) / 1000).toFixed(1)} s`;
  const running = `${SERVERS} servers running a tiny process (sleep)`;
  await measure(running, 'compiled', starts);
  await stack.restartDaemon({ daemon: 'tsx' });
  await allRunning(stack);
  await measure(running, 'tsx');

  console.log(`daemon-rss: VmRSS of the daemon process (median of 5 samples after ${SETTLE_MS / 1000} s)`);
  console.log(`  ${''.padEnd(48)}  ${'tsx'.padStart(10)}  ${'compiled'.padStart(10)}  compiled/tsx`);
  for (const { label, figures, note } of rows) {
    const cell = (mode: Mode) => (figures[mode] === undefined ? '—'.padStart(10) : mib(figures[mode]));
    const ratio =
      figures.tsx && figures.compiled ? (figures.compiled / figures.tsx).toFixed(2).padStart(12) : '';
    console.log(
      `  ${label.padEnd(48)}  ${cell('tsx')}  ${cell('compiled')}  ${ratio}${note ? `   (${note})` : ''}`,
    );
  }
  const empty = rows[0]!.figures;
  const booted = rows.find((r) => r.label === idle)!.figures;
  const run = rows.find((r) => r.label === running)!.figures;
  console.log(
    `  per idle server (compiled): ${((booted.compiled! - empty.compiled!) / SERVERS).toFixed(0)} KiB; ` +
      `per running server: ${((run.compiled! - empty.compiled!) / SERVERS).toFixed(0)} KiB`,
  );
  console.log(`  ratio (${SERVERS} idle, compiled / tsx): ${(booted.compiled! / booted.tsx!).toFixed(2)}`);
  console.log(`  (whole run ${((Date.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await stack.stop();
}
// fetch's connection pool keeps this process alive for a while after everything has stopped.
process.exit(0);
