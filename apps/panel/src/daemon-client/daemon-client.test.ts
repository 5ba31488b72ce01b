import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server } from '../db/types.ts';
import { ensureLocalNode } from '../embedded/local-node.ts';
import { TestClient, expectError } from '../test-support/client.ts';
import { freePort } from '../test-support/daemon.ts';
import { gameServerEgg, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

// A node whose "daemon" is a small HTTP server in this test: it answers what each test sets, so the
// panel's reading of daemon answers can be seen with bodies a real daemon never sends.
let panel: TestPanel;
let fake: HttpServer;
let client: TestClient;
let node: Node;
let server: Server;
const answers = new Map<string, string>();

beforeAll(async () => {
  fake = createServer((req, res) => {
    const body = answers.get(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(body ?? '{"error":"The requested resource does not exist on this instance."}');
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  panel = await startTestPanel();
  // Below the ephemeral range and the browser tests' block, as in test-support/daemon.ts.
  const first = 10_000 + Math.floor(Math.random() * 8_000);
  ({ node } = await ensureLocalNode(panel.ctx, {
    daemonPort: (fake.address() as AddressInfo).port,
    sftpPort: await freePort(),
    ports: [first, first + 1],
  }));
  const owner = await panel.createUser({ password: 'hunter2hunter2' });
  server = await serverRow(panel.ctx, node, await gameServerEgg(panel.ctx), owner.id);
  client = new TestClient(panel.url);
  await client.login(owner.username, 'hunter2hunter2');
}, 60_000);

afterAll(async () => {
  await panel?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

const wingsFile = {
  name: 'server.properties',
  created: '2024-05-01T12:34:56Z',
  modified: '2024-05-02T08:00:00+02:00',
  mode: '-rw-r--r--',
  mode_bits: '644',
  size: 120,
  directory: false,
  file: true,
  symlink: false,
  mime: 'text/plain; charset=utf-8',
};

const unexpected = (route: string, what: string) =>
  `The machine running this server (node "${node.name}") sent an unexpected answer to ${route}: ${what}.`;

describe('answers of a daemon are checked against the shared wire schemas', () => {
  const listPath = () => `/api/servers/${server.uuid}/files/list-directory`;
  const list = () => client.get(`/api/client/servers/${server.uuid_short}/files/list?directory=/`);

  it('a well-formed listing (with fields we do not know) is shown', async () => {
    answers.set(listPath(), JSON.stringify([{ ...wingsFile, future_field: 1 }]));
    const res = await list();
    expect(res.status, res.text).toBe(200);
    expect(res.body.data[0].attributes).toEqual({
      name: 'server.properties',
      mode: '-rw-r--r--',
      mode_bits: '644',
      size: 120,
      is_file: true,
      is_symlink: false,
      mimetype: 'text/plain; charset=utf-8',
      created_at: '2024-05-01T12:34:56+00:00',
      modified_at: '2024-05-02T06:00:00+00:00',
    });
  });

  it('a listing with a wrong field is a 502 naming the field', async () => {
    answers.set(listPath(), JSON.stringify([wingsFile, { ...wingsFile, size: '120' }]));
    expectError(
      await list(),
      502,
      'DaemonConnectionException',
      unexpected(
        `GET ${listPath()}`,
        '"1.size" is invalid (Invalid input: expected number, received string)',
      ),
    );
    answers.set(listPath(), JSON.stringify([{ ...wingsFile, modified: 'yesterday' }]));
    expectError(
      await list(),
      502,
      'DaemonConnectionException',
      unexpected(`GET ${listPath()}`, '"0.modified" is invalid (Invalid ISO datetime)'),
    );
    answers.set(listPath(), JSON.stringify({ files: [wingsFile] }));
    expectError(
      await list(),
      502,
      'DaemonConnectionException',
      unexpected(`GET ${listPath()}`, 'the body is invalid (Invalid input: expected array, received object)'),
    );
  });

  it('the list of running pulls is checked like every other answer', async () => {
    const pullPath = `/api/servers/${server.uuid}/files/pull`;
    answers.set(pullPath, JSON.stringify({ downloads: [{ identifier: 7 }] }));
    const res = await client.get(`/api/client/servers/${server.uuid_short}/files/pull`);
    expect(res.status, res.text).toBe(502);
    expect(res.body.errors[0].code).toBe('DaemonConnectionException');
    expect(res.body.errors[0].detail).toContain(
      `sent an unexpected answer to GET ${pullPath}: "downloads.0.`,
    );
  });

  it('a body that is not JSON is a 502 too', async () => {
    answers.set(listPath(), '<html>a proxy error page</html>');
    expectError(
      await list(),
      502,
      'DaemonConnectionException',
      unexpected(`GET ${listPath()}`, 'the body is not JSON'),
    );
  });

  it('resources: a state document without a figure is the reference 504, naming the field', async () => {
    const statePath = `/api/servers/${server.uuid}`;
    const utilization = {
      memory_bytes: 1024,
      memory_limit_bytes: 4096,
      cpu_absolute: 1.5,
      network: { rx_bytes: 1, tx_bytes: 2 },
      uptime: 5000,
      state: 'running',
      disk_bytes: 77,
    };
    answers.set(statePath, JSON.stringify({ state: 'running', is_suspended: false, utilization }));
    const ok = await client.get(`/api/client/servers/${server.uuid_short}/resources`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.attributes).toEqual({
      current_state: 'running',
      is_suspended: false,
      resources: {
        memory_bytes: 1024,
        cpu_absolute: 1.5,
        disk_bytes: 77,
        network_rx_bytes: 1,
        network_tx_bytes: 2,
        uptime: 5000,
      },
    });

    const { memory_bytes: _dropped, ...withoutMemory } = utilization;
    answers.set(
      statePath,
      JSON.stringify({ state: 'running', is_suspended: false, utilization: withoutMemory }),
    );
    // The answer above is reused for a second: drop it, as a power action does.
    panel.ctx.services.servers.states.forget(node, server.uuid);
    expectError(
      await client.get(`/api/client/servers/${server.uuid_short}/resources`),
      504,
      'DaemonConnectionException',
      unexpected(
        `GET ${statePath}`,
        '"utilization.memory_bytes" is invalid (Invalid input: expected number, received undefined)',
      ),
    );

    answers.set(statePath, JSON.stringify({ state: 'exploding', is_suspended: false, utilization }));
    panel.ctx.services.servers.states.forget(node, server.uuid);
    const bad = await client.get(`/api/client/servers/${server.uuid_short}/resources`);
    expect(bad.status, bad.text).toBe(504);
    expect(bad.text).toContain('\\"state\\" is invalid');
  });
});
