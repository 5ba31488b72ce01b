// GET /api/client/servers/{id}/resources through the panel (client API key; the panel asks the daemon
// for every request), beside the daemon's own GET /api/servers/{uuid} hit directly with the node
// token, in the same run. autocannon at 16 connections; panel and daemon each in their own process,
// the load generator in this one. The server runs a tiny idle process, so its figures are live.
// Prints requests/s and p99 of both, and the ratio last.
import autocannon from 'autocannon';
import { startStack } from './support/stack-client.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 16;

async function load(url: string, headers: Record<string, string>) {
  // A short warm-up so JIT and caches settle before measuring.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
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

  const direct = await load(daemonUrl, daemonHeaders);
  const panel = await load(panelUrl, client);
  console.log(
    `resources: ${CONNECTIONS} connections, ${DURATION} s each; panel body ${panelBody.length} bytes, daemon body ${daemonBody.length} bytes`,
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
