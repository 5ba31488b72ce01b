import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server } from '../db/types.ts';
import { ensureLocalNode } from '../embedded/local-node.ts';
import { decrypt } from '../lib/crypto.ts';
import { firstError, TestClient } from '../test-support/client.ts';
import { nodeAndEgg, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

let panel: TestPanel;
let nodeA: Node;
let nodeB: Node;
let server: Server;

const clientFor = (node: Node) =>
  TestClient.withKey(
    panel.url,
    `${node.daemon_token_id}.${decrypt(panel.ctx.config.appKey, node.daemon_token)}`,
  );

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node: nodeA } = await ensureLocalNode(panel.ctx, {
    daemonPort: 18081,
    sftpPort: 12022,
    ports: [43000, 43002],
  }));
  const db = panel.ctx.db.db;
  nodeB = await db
    .insertInto('nodes')
    .values({
      ...nodeA,
      id: undefined,
      uuid: crypto.randomUUID(),
      name: 'Other',
      daemon_token_id: 'otherNodeToken01',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const { egg } = await nodeAndEgg(panel.ctx, [43000, 43002]);
  const owner = await panel.createUser();
  server = await serverRow(
    panel.ctx,
    nodeA,
    egg,
    owner.id,
    { name: 'Remote test', status: 'installing', installed_at: null },
    (env, fallback) => (env === 'MOTD' ? 'remote motd' : fallback),
  );
});
afterAll(async () => {
  await panel.close();
});

describe('/api/remote (what daemons call)', () => {
  it('needs a node token: 401 without, 400 malformed, 403 wrong', async () => {
    expect((await new TestClient(panel.url).get('/api/remote/servers')).status).toBe(401);
    expect((await TestClient.withKey(panel.url, 'no-dot-here').get('/api/remote/servers')).status).toBe(400);
    const wrong = await TestClient.withKey(panel.url, `${nodeA.daemon_token_id}.not-the-token`).get(
      '/api/remote/servers',
    );
    expect(wrong.status).toBe(403);
    expect(firstError(wrong).detail).toBe('You are not authorized to access this resource.');
  });

  it("lists the calling node's servers with their configuration documents", async () => {
    const res = await clientFor(nodeA).get('/api/remote/servers?page=0&per_page=50');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ current_page: 1, last_page: 1, per_page: 50, total: 1 });
    const [entry] = res.body.data;
    expect(entry.uuid).toBe(server.uuid);
    expect(entry.settings).toMatchObject({
      uuid: server.uuid,
      suspended: false,
      invocation: 'node server.js',
      build: { memory_limit: 512, disk_space: 1024, cpu_limit: 100, io_weight: 500, swap: 0 },
      allocations: { default: { ip: '127.0.0.1', port: 43000 }, mappings: { '127.0.0.1': [43000] } },
    });
    expect(entry.settings.environment).toMatchObject({
      MOTD: 'remote motd',
      STARTUP: 'node server.js',
      P_SERVER_LOCATION: 'local',
      P_SERVER_UUID: server.uuid,
      P_SERVER_ALLOCATION_LIMIT: 2,
    });
    expect(entry.process_configuration.stop).toEqual({ type: 'command', value: 'stop' });
    expect(entry.process_configuration.startup.done).toEqual([')! For help, type "help"']);
  });

  it("refuses another node's token for this node's servers (scoped, unlike the original)", async () => {
    const other = clientFor(nodeB);
    expect((await other.get('/api/remote/servers')).body.data).toEqual([]);
    expect((await other.get(`/api/remote/servers/${server.uuid}`)).status).toBe(404);
    expect((await other.get(`/api/remote/servers/${server.uuid}/install`)).status).toBe(404);
    expect(
      (await other.post(`/api/remote/servers/${server.uuid}/install`, { successful: true })).status,
    ).toBe(404);
    expect((await panel.ctx.repositories.servers.findById(server.id))?.status).toBe('installing');
  });

  it('serves the install script and records the install result', async () => {
    const own = clientFor(nodeA);
    const script = await own.get(`/api/remote/servers/${server.uuid}/install`);
    expect(script.body).toMatchObject({ entrypoint: 'bash' });
    expect(script.body.script).toContain('/mnt/server');
    const bad = await own.post(`/api/remote/servers/${server.uuid}/install`, {});
    expect(bad.status).toBe(422);
    expect(
      (await own.post(`/api/remote/servers/${server.uuid}/install`, { successful: false, reinstall: false }))
        .status,
    ).toBe(204);
    expect((await panel.ctx.repositories.servers.findById(server.id))?.status).toBe('install_failed');
    expect(
      (await own.post(`/api/remote/servers/${server.uuid}/install`, { successful: true, reinstall: true }))
        .status,
    ).toBe(204);
    expect((await panel.ctx.repositories.servers.findById(server.id))?.status).toBeNull();
  });
});
