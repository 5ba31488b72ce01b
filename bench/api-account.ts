// GET /api/client/account with an API key at concurrency 32, beside a bare Fastify route returning a
// body of the same size, in the same run. Prints requests/s and p99 of both, and the ratio last.
import autocannon from 'autocannon';
import { startScript } from './support/processes.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;

async function load(url: string, headers: Record<string, string>) {
  // A short warm-up so JIT and caches settle before measuring.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

const panel = await startScript<{ url: string; token: string }>('bench/support/panel-server.ts');
const headers = { authorization: `Bearer ${panel.info.token}`, accept: 'application/json' };
const sample = await fetch(`${panel.info.url}/api/client/account`, { headers });
const body = await sample.text();
if (sample.status !== 200) throw new Error(`panel answered ${sample.status}: ${body}`);
const bare = await startScript<{ url: string }>('bench/support/bare-server.ts', [body]);

try {
  const base = await load(`${bare.info.url}/bare`, {});
  const ours = await load(`${panel.info.url}/api/client/account`, headers);
  console.log(`api-account: body ${body.length} bytes, ${CONNECTIONS} connections, ${DURATION} s each`);
  console.log(`  bare fastify route      ${base.rps.toFixed(0).padStart(7)} req/s   p99 ${base.p99} ms`);
  console.log(`  GET /api/client/account ${ours.rps.toFixed(0).padStart(7)} req/s   p99 ${ours.p99} ms`);
  console.log(`  ratio (ours / bare): ${(ours.rps / base.rps).toFixed(2)} (goal >= 0.5)`);
} finally {
  panel.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}
