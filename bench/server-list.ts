// GET /api/client (the server list) for an owner of 50 servers, beside GET /api/client/account with the
// same client API key, in the same run: autocannon at 16 connections, in rounds alternating between the
// two; the panel in its own process, the load generator in this one. Prints requests/s and p99 of
// both, and the ratio last (goal: the list at >= 0.25 of the account call). The panel reuses a list
// answer while the database's change counter stands still, so a third target asks for a new query
// string each time: every answer rebuilt (eight queries and the serialisation), as after a change.
import autocannon from 'autocannon';
import { startScript } from './support/processes.ts';

const SERVERS = 50;
const ROUNDS = 3;
const DURATION = Number(process.env.BENCH_DURATION ?? 4); // seconds per round and target
const CONNECTIONS = 16;

async function round(url: string, headers: Record<string, string>, duration: number, fresh = false) {
  let n = 0;
  // A query parameter the panel ignores but that makes each URL, so each cached answer, unique.
  const requests = fresh
    ? [{ setupRequest: (r: { path: string }) => ({ ...r, path: `/api/client?n=${n++}` }) }]
    : undefined;
  const r = await autocannon({ url, connections: CONNECTIONS, duration, headers, requests });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

const panel = await startScript<{ url: string; token: string }>('bench/support/list-panel.ts', [
  String(SERVERS),
]);
try {
  const headers = { authorization: `Bearer ${panel.info.token}`, accept: 'application/json' };
  const listUrl = `${panel.info.url}/api/client`;
  const accountUrl = `${panel.info.url}/api/client/account`;
  const sample = await fetch(listUrl, { headers });
  const body = (await sample.json()) as { data: unknown[] };
  if (sample.status !== 200 || body.data.length !== SERVERS) {
    throw new Error(`list answered ${sample.status} with ${body.data?.length} servers`);
  }
  // Warm-up, then alternating rounds, so load from elsewhere on the machine hits both alike.
  await round(accountUrl, headers, 2);
  await round(listUrl, headers, 2);
  const account = [];
  const list = [];
  const rebuilt = [];
  for (let i = 0; i < ROUNDS; i++) {
    account.push(await round(accountUrl, headers, DURATION));
    list.push(await round(listUrl, headers, DURATION));
    rebuilt.push(await round(listUrl, headers, DURATION, true));
  }
  const sum = (rs: { rps: number; p99: number }[]) => ({
    rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
    p99: rs.map((r) => r.p99).sort((x, y) => x - y)[Math.floor(rs.length / 2)]!,
  });
  const a = sum(account);
  const l = sum(list);
  const r = sum(rebuilt);
  console.log(
    `server-list: ${SERVERS} servers of one owner, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s each (mean req/s, median p99)`,
  );
  console.log(`  GET /api/client/account        ${a.rps.toFixed(0).padStart(7)} req/s   p99 ${a.p99} ms`);
  console.log(`  GET /api/client (50 servers)   ${l.rps.toFixed(0).padStart(7)} req/s   p99 ${l.p99} ms`);
  console.log(`  GET /api/client, rebuilt      ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${r.p99} ms`);
  console.log(`  ratio (list / account): ${(l.rps / a.rps).toFixed(2)} (goal >= 0.25)`);
  console.log(`  ratio (rebuilt list / account): ${(r.rps / a.rps).toFixed(2)}`);
} finally {
  panel.child.kill('SIGTERM');
}
