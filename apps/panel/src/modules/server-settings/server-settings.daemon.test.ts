import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../../test-support/daemon-servers.ts';
import { addSubuser, applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// POST /settings/reinstall through the panel and a real daemon process, which runs the egg's
// install script again and reports back through /api/remote.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let ownerClient: TestClient;
let server: Server;

const base = () => `/api/client/servers/${server.uuid_short}`;
const status = async () =>
  (
    await panel.ctx.db.db
      .selectFrom('servers')
      .select('status')
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow()
  ).status;
const events = async (event: string) =>
  panel.ctx.db.db
    .selectFrom('activity_logs')
    .innerJoin('activity_log_subjects as s', 's.activity_log_id', 'activity_logs.id')
    .select(['activity_logs.actor_id', 'activity_logs.properties'])
    .where('s.subject_type', '=', 'server')
    .where('s.subject_id', '=', server.id)
    .where('event', '=', event)
    .orderBy('activity_logs.id')
    .execute();
const installed = () =>
  waitUntil(
    'the installation to finish',
    () => status(),
    (s) => s !== 'installing',
  );

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx);
  const egg = await gameServerEgg(panel.ctx);
  const app = await applicationClient(panel);
  owner = await panel.createUser();
  ownerClient = await panel.signedIn(owner);
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), { name: 'Reinstall me' }),
  );
  expect(created.status, created.text).toBe(201);
  server = (await panel.ctx.repositories.servers.findByIdentifier(created.body.attributes.identifier))!;
  expect(await installed()).toBeNull();
  // From now on the install script takes a second longer, so a running reinstall can be seen.
  const { script_install } = await panel.ctx.db.db
    .selectFrom('eggs')
    .select('script_install')
    .where('id', '=', egg.id)
    .executeTakeFirstOrThrow();
  expect(script_install).toContain('set -euo pipefail\n');
  await panel.ctx.db.db
    .updateTable('eggs')
    .set({ script_install: script_install!.replace('set -euo pipefail\n', 'set -euo pipefail\nsleep 1\n') })
    .where('id', '=', egg.id)
    .execute();
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('POST /settings/reinstall against a real daemon', () => {
  it('answers 202, marks the server installing, and the daemon runs the install script again', async () => {
    // A file the install script writes, changed by the user: the reinstall writes it anew.
    const write = await ownerClient.request(
      'POST',
      `${base()}/files/write?file=server.js`,
      undefined,
      '// replaced by the user\n',
      'text/plain',
    );
    expect(write.status).toBe(204);
    expect(await events('server:install.completed')).toHaveLength(1);

    const res = await ownerClient.post(`${base()}/settings/reinstall`);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(await status()).toBe('installing');
    const seen = await ownerClient.get(base());
    expect(seen.status).toBe(200);
    expect(seen.body.attributes.status).toBe('installing');
    const [entry, ...more] = await events('server:reinstall');
    expect(more).toEqual([]);
    expect(entry!.actor_id).toBe(owner.id);
    expect(JSON.parse(entry!.properties)).toEqual({});

    // While it runs, the server refuses another reinstall (and everything else) with the reason.
    for (const [path, body] of [
      ['settings/reinstall', undefined],
      ['power', { signal: 'start' }],
    ] as const) {
      const again = await ownerClient.post(`${base()}/${path}`, body);
      expect(again.status, path).toBe(409);
      expect(firstError(again)).toEqual({
        code: 'ServerStateConflictException',
        status: '409',
        detail: 'This server has not yet completed its installation process, please try again later.',
      });
    }
    expect(await events('server:reinstall')).toHaveLength(1);

    expect(await installed()).toBeNull();
    // The report sets the status, then logs the completion.
    await waitUntil(
      'the install report',
      () => events('server:install.completed'),
      (e) => e.length === 2,
    );
    const contents = await ownerClient.get(`${base()}/files/contents?file=server.js`);
    expect(contents.status).toBe(200);
    expect(contents.text).toContain('Talon demo game server');
    expect((await ownerClient.get(base())).body.attributes.status).toBeNull();
  });

  it('refuses a suspended server with 409 and leaves it suspended', async () => {
    await panel.ctx.repositories.servers.update(server.id, { status: 'suspended' });
    const res = await ownerClient.post(`${base()}/settings/reinstall`);
    expectError(
      res,
      409,
      'ServerStateConflictException',
      'This server is currently suspended and the functionality requested is unavailable.',
    );
    expect(await status()).toBe('suspended');
    expect(await events('server:reinstall')).toHaveLength(1);
    await panel.ctx.repositories.servers.update(server.id, { status: null });
  });

  it('lets a subuser with settings.reinstall reinstall, and refuses one without it', async () => {
    const allowed = await panel.createUser();
    const denied = await panel.createUser();
    for (const [user, permissions] of [
      [allowed, ['settings.reinstall']],
      [denied, ['websocket.connect', 'control.console', 'settings.rename']],
    ] as const) {
      await addSubuser(panel.ctx, server, user, permissions);
    }
    const refused = await (await panel.signedIn(denied)).post(`${base()}/settings/reinstall`);
    expect(refused.status).toBe(403);
    expect(firstError(refused).detail).toBe('This action is unauthorized.');
    expect(await status()).toBeNull();

    expect((await (await panel.signedIn(allowed)).post(`${base()}/settings/reinstall`)).status).toBe(202);
    expect(await installed()).toBeNull();
    const entries = await events('server:reinstall');
    expect(entries.map((e) => e.actor_id)).toEqual([owner.id, allowed.id]);
  });
});
