import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, User } from '../../db/types.ts';
import { expectError, type TestClient } from '../../test-support/client.ts';
import type { TestDaemon } from '../../test-support/daemon.ts';
import {
  freeAllocation,
  type PanelWithDaemon,
  serverBody,
  startPanelWithDaemon,
  waitUntil,
} from '../../test-support/daemon-servers.ts';
import { applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';

// The admin server view's install log (issue 24): a failed install's output read through the
// panel from the real daemon that ran it, refused to everyone but root admins and server readers.
let world: PanelWithDaemon;
let panel: TestPanel;
let daemon: TestDaemon;
let app: TestClient;
let owner: User;
let ownerClient: TestClient;
let egg: Egg;

beforeAll(async () => {
  world = await startPanelWithDaemon(20);
  ({ panel, daemon, app, owner, ownerClient } = world);
  egg = await gameServerEgg(panel.ctx);
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** The egg's install script from now on (the built-in egg's own is replaced for this file). */
const useInstallScript = (script: string) =>
  panel.ctx.db.db
    .updateTable('eggs')
    .set({ script_install: script, copy_script_from: null })
    .where('id', '=', egg.id)
    .execute();

const statusOf = (id: number, wanted: string | null) =>
  waitUntil(
    `status ${wanted}`,
    () => app.get(`/api/application/servers/${id}`),
    (r) => r.status === 200 && r.body.attributes.status === wanted,
  );

async function createServer(
  extra: Record<string, unknown> = {},
): Promise<{ id: number; identifier: string }> {
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), extra),
  );
  expect(created.status, created.text).toBe(201);
  return created.body.attributes;
}

describe('GET /api/application/servers/:id/install-log', () => {
  it("answers a failed install's output, and the reinstall's once the script is fixed", async () => {
    await useInstallScript(
      'echo "downloading the world from nowhere"\necho "curl: (6) could not resolve host" >&2\nexit 7',
    );
    const server = await createServer({ name: 'Broken install' });
    await statusOf(server.id, 'install_failed');
    // The owner's client API says so too.
    const own = await ownerClient.get(`/api/client/servers/${server.identifier}`);
    expect(own.body.attributes.status).toBe('install_failed');

    const log = await app.get(`/api/application/servers/${server.id}/install-log`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.object).toBe('server_install_log');
    expect(log.body.attributes.content).toContain('downloading the world from nowhere');
    expect(log.body.attributes.content).toContain('curl: (6) could not resolve host');
    expect(log.body.attributes.content).toContain('exit code: 7');

    await useInstallScript('echo "world downloaded"');
    expect((await app.post(`/api/application/servers/${server.id}/reinstall`)).status).toBe(204);
    await statusOf(server.id, null);
    const fixed = await app.get(`/api/application/servers/${server.id}/install-log`);
    expect(fixed.body.attributes.content).toContain('world downloaded');
    expect(fixed.body.attributes.content).toContain('exit code: 0');
    expect(fixed.body.attributes.content).not.toContain('nowhere');
  }, 120_000);

  it('answers null content for a server whose install script was skipped', async () => {
    const server = await createServer({ name: 'Skipped install', skip_scripts: true });
    await statusOf(server.id, null);
    const log = await app.get(`/api/application/servers/${server.id}/install-log`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.attributes).toEqual({ content: null });
  }, 120_000);

  it('refuses non-admins and keys without the servers right, and answers 404 for an unknown server', async () => {
    await useInstallScript('echo "secret-looking output"; exit 1');
    const server = await createServer({ name: 'Owner cannot read' });
    await statusOf(server.id, 'install_failed');

    const asOwner = await ownerClient.get(`/api/application/servers/${server.id}/install-log`);
    expect(asOwner.status).toBe(403);
    expect(asOwner.text).not.toContain('secret-looking output');

    const noServersRight = await applicationClient(panel, { r_servers: 0 });
    const asKey = await noServersRight.get(`/api/application/servers/${server.id}/install-log`);
    expectError(asKey, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');

    const unknown = await app.get('/api/application/servers/999999/install-log');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('NotFoundHttpException');
  }, 120_000);
});
