import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server } from '../db/types.ts';
import { ensureLocalNode } from '../embedded/local-node.ts';
import { nowIso } from '../lib/time.ts';
import type { Res, TestClient } from '../test-support/client.ts';
import { nodeAndEgg, remoteClient, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

// CVE-2026-26016 (and §9.4, GHSA-v97c-v3vw-p5ff): the node-facing API must check that a server
// or backup belongs to the calling node. Every /api/remote route is called with node B's token
// about node A's server and backups: each is refused (or sees nothing), and nothing changes.
let panel: TestPanel;
let nodeA: Node;
let nodeB: Node;
let server: Server;
let backupUuid: string;
let user: { uuid: string; username: string };

/** The snapshot that must not change: A's server row, its backups and its activity. */
async function state() {
  const db = panel.ctx.db.db;
  return {
    server: await db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow(),
    backups: await db.selectFrom('backups').selectAll().where('server_id', '=', server.id).execute(),
    activity: await db.selectFrom('activity_logs').select(['id', 'event']).orderBy('id').execute(),
  };
}

/** Each /api/remote route (method and path pattern) with the request node B makes about node A. */
const ATTACKS: Record<string, (b: TestClient) => Promise<Res>> = {
  'GET /api/remote/servers': (b) => b.get('/api/remote/servers'),
  'GET /api/remote/servers/:uuid': (b) => b.get(`/api/remote/servers/${server.uuid}`),
  'GET /api/remote/servers/:uuid/install': (b) => b.get(`/api/remote/servers/${server.uuid}/install`),
  'POST /api/remote/servers/:uuid/install': (b) =>
    b.post(`/api/remote/servers/${server.uuid}/install`, { successful: true, reinstall: false }),
  'POST /api/remote/servers/reset': (b) => b.post('/api/remote/servers/reset'),
  'POST /api/remote/backups/:uuid': (b) =>
    b.post(`/api/remote/backups/${backupUuid}`, {
      successful: true,
      checksum: 'abc',
      checksum_type: 'sha1',
      size: 1,
      parts: [],
    }),
  'POST /api/remote/backups/:uuid/restore': (b) =>
    b.post(`/api/remote/backups/${backupUuid}/restore`, { successful: true }),
  'POST /api/remote/activity': (b) =>
    b.post('/api/remote/activity', {
      data: [
        {
          server: server.uuid,
          event: 'server:console.command',
          metadata: { command: 'forged' },
          user: user.uuid,
          ip: '127.0.0.1',
          timestamp: nowIso(),
        },
      ],
    }),
  'POST /api/remote/sftp/auth': (b) =>
    b.post('/api/remote/sftp/auth', {
      type: 'password',
      username: `${user.username}.${server.uuid.slice(0, 8)}`,
      password: 'hunter2hunter2',
    }),
};
/** Not about a server or backup: a setup token (not a node token) names the node itself. */
const NOT_NODE_SCOPED = ['GET /api/remote/node-setup/:token'];

/** Every route under /api/remote the panel serves, as `METHOD /path` (HEAD left out). */
function remoteRoutes(): string[] {
  // printRoutes draws a tree: each line's path continues its parent's (4 columns per level).
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of panel.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/u.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    if (!m[3] || !path.startsWith('/api/remote')) continue;
    for (const method of m[3].split(',').map((s) => s.trim()))
      if (method !== 'HEAD') out.add(`${method} ${path}`);
  }
  return [...out].sort();
}

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node: nodeA } = await ensureLocalNode(panel.ctx, {
    daemonPort: 18081,
    sftpPort: 12022,
    ports: [43100, 43104],
  }));
  nodeB = await panel.ctx.db.db
    .insertInto('nodes')
    .values({
      ...nodeA,
      id: undefined,
      uuid: randomUUID(),
      name: 'Other',
      daemon_token_id: 'otherNodeOwner01',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const { egg } = await nodeAndEgg(panel.ctx, [43100, 43104]);
  const owner = await panel.createUser({ password: 'hunter2hunter2' });
  user = owner;
  server = await serverRow(panel.ctx, nodeA, egg, owner.id, {
    status: 'restoring_backup',
    installed_at: null,
    backup_limit: 2,
  });
  backupUuid = randomUUID();
  const at = nowIso();
  await panel.ctx.db.db
    .insertInto('backups')
    .values({
      server_id: server.id,
      uuid: backupUuid,
      name: 'A backup',
      ignored_files: '[]',
      is_locked: 0,
      is_successful: 0,
      bytes: 0,
      disk: 'wings',
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterAll(async () => {
  await panel?.close();
});

describe("/api/remote with another node's token (CVE-2026-26016)", () => {
  it('the attack list covers every /api/remote route', () => {
    expect(remoteRoutes()).toEqual([...Object.keys(ATTACKS), ...NOT_NODE_SCOPED].sort());
  });

  it("every route refuses node B about node A's server and backups, and nothing changes", async () => {
    const before = await state();
    const b = remoteClient(panel, nodeB);
    const answers: Record<string, number> = {};
    for (const [route, attack] of Object.entries(ATTACKS)) {
      const res = await attack(b);
      answers[route] = res.status;
      if (route === 'GET /api/remote/servers') expect(res.body.data).toEqual([]);
    }
    expect(answers).toEqual({
      'GET /api/remote/servers': 200,
      'GET /api/remote/servers/:uuid': 404,
      'GET /api/remote/servers/:uuid/install': 404,
      'POST /api/remote/servers/:uuid/install': 404,
      // B's own stuck servers (none) are reset; A's restoring server is left alone.
      'POST /api/remote/servers/reset': 204,
      'POST /api/remote/backups/:uuid': 404,
      'POST /api/remote/backups/:uuid/restore': 404,
      // Accepted as a batch, but entries about other nodes' servers are dropped.
      'POST /api/remote/activity': 204,
      'POST /api/remote/sftp/auth': 403,
    });
    expect(await state()).toEqual(before);
  });

  it("node A's own token is answered (the routes work; the refusals above are about ownership)", async () => {
    const a = remoteClient(panel, nodeA);
    expect((await a.get(`/api/remote/servers/${server.uuid}`)).status).toBe(200);
    expect((await a.get(`/api/remote/servers/${server.uuid}/install`)).status).toBe(200);
  });
});
