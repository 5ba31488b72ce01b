import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node } from '../db/types.ts';
import { TestClient } from '../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../test-support/daemon-servers.ts';
import { applicationClient, gameServerEgg } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { DaemonClient } from './daemon-client.ts';
import { SERVER_STATE_TTL_MS, ServerStateCache } from './server-state-cache.ts';

// Resource requests share daemon calls: counted by the daemon client itself, against a real daemon
// process that knows a real (installed) server.
let panel: TestPanel;
let daemon: TestDaemon;
let client: TestClient;
let node: Node;
let identifier: string;
let uuid: string;

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx, 2);
  node = daemon.node;
  const egg = await gameServerEgg(panel.ctx);
  const app = await applicationClient(panel);
  const owner = await panel.createUser({ password: 'hunter2hunter2' });
  client = new TestClient(panel.url);
  await client.login(owner.username, 'hunter2hunter2');
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, egg, await freeAllocation(panel.ctx, node), { name: 'Watched', skip_scripts: true }),
  );
  expect(created.status, created.text).toBe(201);
  ({ identifier, uuid } = created.body.attributes as { identifier: string; uuid: string });
  await waitUntil(
    'the server to finish installing',
    async () => (await client.get(`/api/client/servers/${identifier}`)).body.attributes.status,
    (status) => status === null,
  );
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('GET /api/client/servers/:server/resources', () => {
  it('asks the daemon once for many concurrent requests for one server', async () => {
    const daemonClient = panel.ctx.services.servers.daemonClient;
    const before = daemonClient.requestsSent;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => client.get(`/api/client/servers/${identifier}/resources`)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(answers[0]!.body.attributes.current_state).toBe('offline');
    expect(daemonClient.requestsSent - before).toBe(1);
  });
});

describe('ServerStateCache', () => {
  it('reuses an answer until it is a second old, then asks the daemon again', async () => {
    const daemonClient = new DaemonClient(panel.ctx.config.appKey);
    let now = 1_000_000;
    const cache = new ServerStateCache(daemonClient, { now: () => now });
    try {
      const first = await Promise.all([cache.get(node, uuid), cache.get(node, uuid)]);
      expect(first[0]?.state).toBe('offline');
      expect(first[1]).toBe(first[0]);
      expect(daemonClient.requestsSent).toBe(1);

      now += SERVER_STATE_TTL_MS - 1;
      expect(await cache.get(node, uuid)).toBe(first[0]);
      expect(daemonClient.requestsSent).toBe(1);

      now += 1;
      const later = await cache.get(node, uuid);
      expect(later.state).toBe('offline');
      expect(later).not.toBe(first[0]);
      expect(daemonClient.requestsSent).toBe(2);

      // A power action makes the next ask go to the daemon at once.
      cache.forget(node, uuid);
      await cache.get(node, uuid);
      expect(daemonClient.requestsSent).toBe(3);
    } finally {
      daemonClient.close();
    }
  });

  it('shares a failure with the callers already waiting but does not keep it', async () => {
    const daemonClient = new DaemonClient(panel.ctx.config.appKey);
    const cache = new ServerStateCache(daemonClient, { now: () => 0 });
    const unknown = '00000000-0000-4000-8000-000000000000';
    try {
      const failures = await Promise.allSettled([cache.get(node, unknown), cache.get(node, unknown)]);
      expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected']);
      expect(daemonClient.requestsSent).toBe(1);
      await expect(cache.get(node, unknown)).rejects.toMatchObject({ status: 404 });
      expect(daemonClient.requestsSent).toBe(2);
    } finally {
      daemonClient.close();
    }
  });
});
