// GET /api/application/nodes/{id}/health against a real daemon process, a port nothing listens on,
// a daemon that accepts and stays silent, a node whose token the daemon does not know, and the
// same daemon once stopped.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import os from 'node:os';
import { nodeHealthSchema } from '@talon/shared/admin/node-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, TestClient } from '../../test-support/client.ts';
import { freePort, startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL, READ } from '../application/testing.ts';

let panel: TestPanel;
let admin: User;
let api: TestClient;
let daemon: TestDaemon;
let silent: Server;
const sockets: Socket[] = [];

/** A node of the panel pointing at 127.0.0.1:`port`, made through the API. */
async function nodeAt(port: number, name: string): Promise<number> {
  const res = await api.post('/api/application/nodes', {
    name,
    location_id: daemon.node.location_id,
    fqdn: '127.0.0.1',
    scheme: 'http',
    memory: 1024,
    memory_overallocate: 0,
    disk: 1024,
    disk_overallocate: 0,
    daemon_listen: port,
    daemon_sftp: 2022,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.attributes.id as number;
}

const health = async (id: number, client = api) => {
  const res = await client.get(`/api/application/nodes/${id}/health`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.object).toBe('node_health');
  return nodeHealthSchema.parse(res.body.attributes);
};

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_nodes: READ | FULL });
  daemon = await startTestDaemon(panel.ctx, 1);
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.destroy();
  silent?.close();
  await daemon?.stop();
  await panel?.close();
});

describe('node health', () => {
  it("reports a running daemon's version, CPUs, memory and OS", async () => {
    const before = Date.now();
    const h = await health(daemon.node.id);
    expect(h).toMatchObject({
      reachable: true,
      error: null,
      version: '0.1.0',
      cpu_count: os.cpus().length,
      kernel_version: os.release(),
      memory: { total: os.totalmem() },
    });
    // The daemon's runtime extension: servers as processes, no Docker network.
    expect(h.runtime).toMatchObject({ driver: 'process', network: null });
    expect(['bwrap', 'none']).toContain(h.runtime?.confinement);
    expect(h.architecture).toBe(os.arch() === 'x64' ? 'amd64' : os.arch());
    expect(h.os).toBeTruthy();
    expect(Date.parse(h.checked_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('a root admin session reads it too', async () => {
    const session = await panel.signedIn(admin);
    expect((await health(daemon.node.id, session)).reachable).toBe(true);
  });

  it('a port nothing listens on: 200, unreachable, "Connection refused"', async () => {
    const id = await nodeAt(await freePort(), 'Nothing there');
    expect(await health(id)).toEqual({
      reachable: false,
      version: null,
      architecture: null,
      cpu_count: null,
      kernel_version: null,
      os: null,
      memory: { total: null },
      runtime: null,
      error: 'Connection refused',
      checked_at: expect.any(String),
    });
  });

  it('a Wings node (a docker block, no runtime extension) runs Docker; a docker daemon names its network', async () => {
    const answers: Record<string, unknown>[] = [
      {
        version: '1.11.13',
        docker: { version: '28.2.2', cgroups: { driver: 'cgroupfs', version: '1' } },
        system: {
          architecture: 'amd64',
          cpu_threads: 4,
          memory_bytes: 8e9,
          kernel_version: '6.1.0',
          os: 'Debian GNU/Linux 12 (bookworm)',
          os_type: 'linux',
        },
      },
    ];
    answers.push({
      ...answers[0],
      docker: undefined,
      version: '0.1.0',
      runtime: {
        driver: 'docker',
        confinement: 'container',
        limits: 'docker',
        enforcement: 'kernel',
        network: 'host',
      },
    });
    // …and one whose engine fails says why (our daemon's 500 carries Wings' `{"error"}` shape).
    answers.push({ status: 500, error: 'The Docker engine cannot be used: storage driver overlay2 broke' });
    const standIn = createHttpServer((_req, res) => {
      const { status = 200, ...answer } = answers.shift()!;
      res.writeHead(status as number, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    try {
      const id = await nodeAt((standIn.address() as AddressInfo).port, 'Docker stand-in');
      expect((await health(id)).runtime).toEqual({
        driver: 'docker',
        confinement: 'container',
        network: null,
      });
      expect((await health(id)).runtime).toEqual({
        driver: 'docker',
        confinement: 'container',
        network: 'host',
      });
      expect(await health(id)).toMatchObject({
        reachable: false,
        runtime: null,
        error:
          'The node answered with HTTP status 500: The Docker engine cannot be used: storage driver overlay2 broke',
      });
    } finally {
      standIn.close();
    }
  });

  it('a daemon that never answers: unreachable after the 3 s timeout', async () => {
    const address = silent.address();
    const id = await nodeAt(typeof address === 'object' && address ? address.port : 0, 'Silent');
    const h = await health(id);
    expect(h).toMatchObject({ reachable: false, error: 'Timed out after 3 s', version: null });
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('a node whose token the daemon does not know: unreachable, the token named', async () => {
    // Another node record on the same daemon: its token is not the daemon's.
    const id = await nodeAt(daemon.node.daemon_listen, 'Wrong token');
    expect(await health(id)).toMatchObject({
      reachable: false,
      error: "Unauthorized: the node's token does not match",
    });
  });

  it('401 without credentials, 403 for non-admins and keys without r_nodes, 404 unknown node', async () => {
    const path = `/api/application/nodes/${daemon.node.id}/health`;
    expectError(
      await new TestClient(panel.url).get(path),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    const user = await panel.createUser();
    expectError(
      await (await panel.signedIn(user)).get(path),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const other = await applicationClient(panel, admin, { r_servers: FULL });
    expectError(await other.get(path), 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    expect((await api.get('/api/application/nodes/999999/health')).status).toBe(404);
  });

  it('the same daemon once stopped: unreachable, "Connection refused"', async () => {
    await daemon.stop();
    expect(await health(daemon.node.id)).toMatchObject({
      reachable: false,
      error: 'Connection refused',
      memory: { total: null },
    });
  });
});
