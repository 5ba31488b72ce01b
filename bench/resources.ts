// GET /api/client/servers/{id}/resources through the panel (client API key; the panel asks the daemon
// for every request), beside the daemon's own GET /api/servers/{uuid} hit directly with the node
// token, in the same run. autocannon at 16 connections, in rounds alternating between the two; panel
// and daemon each in their own process, the load generator in this one. The server runs a tiny idle process, so its figures are live.
// Prints requests/s and p99 of both, and the ratio last.
import autocannon from 'autocannon';
import { startStack } from './support/stack-client.ts';

const ROUNDS = 3;
const DURATION = Number(process.env.BENCH_DURATION ?? 4); // seconds per round and target
const CONNECTIONS = 16;

type Target = { url: string; headers: Record<string, string> };

async function round(t: Target, duration: number) {
  const r = await autocannon({ url: t.url, connections: CONNECTIONS, duration, headers: t.headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${t.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

/** Warm-up, then rounds that alternate between the targets, so load from elsewhere hits both alike. */
async function compare(a: Target, b: Target) {
  await round(a, 2);
  await round(b, 2);
  const ra = [];
  const rb = [];
  for (let i = 0; i < ROUNDS; i++) {
    ra.push(await round(a, DURATION));
    rb.push(await round(b, DURATION));
  }
  const sum = (rs: { rps: number; p99: number }[]) => ({
    rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
    p99: rs.map((r) => r.p99).sort((x, y) => x - y)[Math.floor(rs.length / 2)]!,
  });
  return [sum(ra), sum(rb)] as const;
}

const stack = await startStack({ allocations: 1 });
try {
  const { info } = stack;
  const server = await stack.createServer(0, 'echo App ready on port {{SERVER_PORT}}; exec sleep 100000');
  await stack.waitInstalled([server]);
  const client = { authorization: `Bearer ${info.clientKey}`, accept: 'application/json' };
  const panelUrl = `${info.panelUrl}/api/client/servers/${server.identifier}/resources`;
  const daemonUrl = `${info.daemon.url}/api/servers/${server.uuid}`;
  const daemonHeaders = { authorization: `Bearer ${info.daemonToken}`, accept: 'application/json' };
  const start = await fetch(`${info.panelUrl}/api/client/servers/${server.identifier}/power`, {
    method: 'POST',
    headers: { ...client, 'content-type': 'application/json' },
    body: JSON.stringify({ signal: 'start' }),
  });
  if (start.status !== 204) throw new Error(`power start: ${start.status} ${await start.text()}`);
  for (let i = 0; ; i++) {
    const res = await fetch(panelUrl, { headers: client });
    const body = (await res.json()) as { attributes: { current_state: string } };
    if (body.attributes.current_state === 'running') break;
    if (i > 100) throw new Error(`server not running: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const panelBody = await (await fetch(panelUrl, { headers: client })).text();
  const daemonBody = await (await fetch(daemonUrl, { headers: daemonHeaders })).text();

  const [direct, panel] = await compare(
    { url: daemonUrl, headers: daemonHeaders },
    { url: panelUrl, headers: client },
  );
  console.log(
    `resources: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s each (mean req/s, median p99); panel body ${panelBody.length} bytes, daemon body ${daemonBody.length} bytes`,
  );
  console.log(
    `  daemon GET /api/servers/{uuid} (direct)     ${direct.rps.toFixed(0).padStart(7)} req/s   p99 ${direct.p99} ms`,
  );
  console.log(
    `  panel GET /api/client/servers/{id}/resources ${panel.rps.toFixed(0).padStart(7)} req/s   p99 ${panel.p99} ms`,
  );
  console.log(`  ratio (panel / daemon direct): ${(panel.rps / direct.rps).toFixed(2)}`);
} finally {
  await stack.stop();
}
// fetch's connection pool keeps this process alive for a while after everything has stopped.
process.exit(0);
