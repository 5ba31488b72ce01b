import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Egg, User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../../test-support/daemon-servers.ts';
import { addSubuser, applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { TestSocket } from '../../test-support/socket.ts';

// Panel ⇄ daemon through real HTTP on loopback: a real daemon process installs and runs the
// built-in Node.js game server as a real, confined process.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let egg: Egg;
let app: TestClient;
let client: TestClient;

/**
 * Waits until the daemon has handled every frame sent so far: it handles frames in order and decides
 * on a power action before anything asynchronous, so the answer to a later 'send stats' is the
 * acknowledgement that an ignored action was ignored (a pause would only guess at it).
 */
async function acknowledged(socket: TestSocket): Promise<void> {
  const from = socket.mark();
  socket.send('send stats');
  await socket.waitFor((m) => m.event === 'stats', 30_000, from);
}

/** The body of a new server of `owner` on the next free allocation of the daemon's node. */
const newServer = async (extra: Record<string, unknown> = {}) =>
  serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), extra);

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx, 8); // one allocation per server the tests create
  egg = await gameServerEgg(panel.ctx);
  app = await applicationClient(panel);
  owner = await panel.createUser({ password: 'hunter2hunter2' });
  client = new TestClient(panel.url);
  await client.login(owner.username, 'hunter2hunter2');
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

/** A server created through the application API and installed by the daemon. */
async function installedServer(name: string): Promise<{ internalId: number; identifier: string }> {
  const created = await app.post('/api/application/servers', await newServer({ name }));
  expect(created.status, created.text).toBe(201);
  const { id: internalId, identifier } = created.body.attributes as { id: number; identifier: string };
  await waitUntil(
    'installation',
    () => client.get(`/api/client/servers/${identifier}`),
    (r) => r.body.attributes.status === null,
  );
  return { internalId, identifier };
}

/** The daemon console of `identifier`, signed in with a token the panel gave `as`. */
async function consoleOf(identifier: string, as: TestClient): Promise<TestSocket> {
  const { token, socket: url } = (await as.get(`/api/client/servers/${identifier}/websocket`)).body.data;
  const socket = await TestSocket.open(url, panel.url);
  socket.send('auth', token);
  await socket.waitFor((m) => m.event === 'auth success');
  return socket;
}

describe('a server from create to stop, through the panel and a real daemon', () => {
  it('creates, installs, starts, runs a command, stops', async () => {
    const created = await app.post('/api/application/servers', await newServer());
    expect(created.status, created.text).toBe(201);
    expect(created.body.attributes).toMatchObject({
      name: 'Integration world',
      status: 'installing',
      user: owner.id,
    });
    const id: string = created.body.attributes.identifier;

    const details = await waitUntil(
      'installation',
      () => client.get(`/api/client/servers/${id}`),
      (r) => r.status === 200 && r.body.attributes.status === null,
    );
    expect(details.body.meta).toEqual({ is_server_owner: true, user_permissions: ['*'] });
    expect(details.body.attributes.invocation).toBe('node server.js');

    const credentials = await client.get(`/api/client/servers/${id}/websocket`);
    expect(credentials.status).toBe(200);
    const socket = await TestSocket.open(credentials.body.data.socket, panel.url);
    socket.send('auth', credentials.body.data.token);
    await socket.waitFor((m) => m.event === 'auth success');

    const beforeStart = socket.mark();
    expect((await client.post(`/api/client/servers/${id}/power`, { signal: 'start' })).status).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 30_000, beforeStart);

    expect(
      (await client.post(`/api/client/servers/${id}/command`, { command: 'say integration-hello' })).status,
    ).toBe(204);
    await socket.waitFor(
      (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('integration-hello'),
    );

    // The daemon samples about once a second; wait for the first sample after the start.
    const stats = await waitUntil(
      'resource figures',
      () => client.get(`/api/client/servers/${id}/resources`),
      (r) => r.status !== 200 || r.body.attributes.resources.memory_bytes > 0,
      10_000,
    );
    expect(stats.status).toBe(200);
    expect(stats.body.attributes.current_state).toBe('running');
    expect(stats.body.attributes.resources.memory_bytes).toBeGreaterThan(1024 * 1024);
    expect(stats.body.attributes.resources.uptime).toBeGreaterThan(0);

    const beforeStop = socket.mark();
    expect((await client.post(`/api/client/servers/${id}/power`, { signal: 'stop' })).status).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'stopping', 30_000, beforeStop);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 30_000, beforeStop);
    socket.close();

    const stopped = await client.post(`/api/client/servers/${id}/command`, { command: 'say nobody' });
    expectError(stopped, 502, 'HttpException', 'Server must be online in order to send commands.');
  });

  it('answers a command to a server that was never started with 502 "Server must be online" (reference)', async () => {
    const { identifier } = await installedServer('Never started');
    const res = await client.post(`/api/client/servers/${identifier}/command`, { command: 'say hello' });
    expect(res.status, res.text).toBe(502);
    expect(res.body).toEqual({
      errors: [
        { code: 'HttpException', status: '502', detail: 'Server must be online in order to send commands.' },
      ],
    });
    // Nothing reached the console, so nothing is recorded as sent.
    const sent = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', '=', 'server:console.command')
      .where('properties', 'like', '%say hello%')
      .execute();
    expect(sent).toEqual([]);
  });

  it('refuses power and console while suspended (409), and works again after unsuspending', async () => {
    const { internalId, identifier } = await installedServer('Suspend me');

    expect((await app.post(`/api/application/servers/${internalId}/suspend`)).status).toBe(204);
    const refused = await client.post(`/api/client/servers/${identifier}/power`, { signal: 'start' });
    expectError(
      refused,
      409,
      'ServerStateConflictException',
      'This server is currently suspended and the functionality requested is unavailable.',
    );
    expect((await client.get(`/api/client/servers/${identifier}/websocket`)).status).toBe(409);
    expect((await app.post(`/api/application/servers/${internalId}/unsuspend`)).status).toBe(204);
    expect((await client.get(`/api/client/servers/${identifier}/resources`)).status).toBe(200);

    expect((await app.delete(`/api/application/servers/${internalId}`)).status).toBe(204);
    expect((await client.get(`/api/client/servers/${identifier}`)).status).toBe(404);
  });

  it('lets a subuser do only what their permissions allow, in the panel and on the daemon', async () => {
    const { identifier } = await installedServer('Shared');
    const helper = await panel.createUser({ password: 'hunter2hunter2' });
    const server = await panel.ctx.repositories.servers.findByIdentifier(identifier);
    await addSubuser(panel.ctx, server!, helper, ['websocket.connect', 'control.console']);
    const sub = new TestClient(panel.url);
    await sub.login(helper.username, 'hunter2hunter2');
    const details = await sub.get(`/api/client/servers/${identifier}`);
    expect(details.body.meta).toEqual({
      is_server_owner: false,
      user_permissions: ['websocket.connect', 'control.console'],
    });
    const refused = await sub.post(`/api/client/servers/${identifier}/power`, { signal: 'start' });
    expect(refused.status).toBe(403);
    // A permission check comes before validation: no power permission at all is 403 even for nonsense.
    expect((await sub.post(`/api/client/servers/${identifier}/power`, { signal: 'random' })).status).toBe(
      403,
    );
    expect((await client.post(`/api/client/servers/${identifier}/power`, { signal: 'random' })).status).toBe(
      422,
    );

    // Over the websocket the daemon applies the same rule to the token's permissions.
    const socket = await consoleOf(identifier, sub);
    const mark = socket.mark();
    socket.send('set state', 'start');
    await acknowledged(socket);
    expect(socket.messages.slice(mark).some((m) => m.event === 'status' && m.args?.[0] === 'starting')).toBe(
      false,
    );
    expect(
      (await client.get(`/api/client/servers/${identifier}/resources`)).body.attributes.current_state,
    ).toBe('offline');
    socket.close();
  });

  it('does not start a suspended server over a socket opened before the suspension', async () => {
    const { internalId, identifier } = await installedServer('Late suspend');
    const socket = await consoleOf(identifier, client);
    expect((await app.post(`/api/application/servers/${internalId}/suspend`)).status).toBe(204);
    const mark = socket.mark();
    socket.send('set state', 'start');
    await acknowledged(socket);
    expect(socket.messages.slice(mark).some((m) => m.event === 'status' && m.args?.[0] !== 'offline')).toBe(
      false,
    );
    socket.close();
    const state = await new TestClient(panel.url).request('GET', '/');
    expect(state.status).toBe(200);
  });

  it("ends the previous owner's console when the owner changes (the incumbent's 1.1.3 fix)", async () => {
    const { internalId, identifier } = await installedServer('Changing hands');
    const socket = await consoleOf(identifier, client);
    await acknowledged(socket);
    const closed = new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));

    const heir = await panel.createUser({ password: 'hunter2hunter2' });
    const details = await app.request('PATCH', `/api/application/servers/${internalId}/details`, {
      name: 'Changing hands',
      user: heir.id,
    });
    expect(details.status).toBe(200);
    expect(details.body.attributes.user).toBe(heir.id);

    // The daemon ends the old owner's console at once (deauthorize-user), saying why first; from
    // that refusal on the old owner gets nothing more.
    await closed;
    const refusal = socket.messages.findIndex(
      (m) => m.event === 'jwt error' && m.args?.[0] === 'jwt: created too far in past (denylist)',
    );
    expect(refusal).toBeGreaterThanOrEqual(0);
    expect(socket.messages.slice(refusal).some((m) => m.event === 'stats' || m.event === 'status')).toBe(
      false,
    );
    socket.close();
    // The previous owner no longer sees the server at all.
    expect((await client.get(`/api/client/servers/${identifier}`)).status).toBe(404);
  });

  it("refuses the previous owner's unused download and upload URLs; the new owner connects and downloads", async () => {
    const { internalId, identifier } = await installedServer('Sold with its files');
    const download = await client.get(`/api/client/servers/${identifier}/files/download?file=server.js`);
    const upload = await client.get(`/api/client/servers/${identifier}/files/upload`);
    expect([download.status, upload.status]).toEqual([200, 200]);

    const heir = await panel.createUser({ password: 'hunter2hunter2' });
    const details = await app.request('PATCH', `/api/application/servers/${internalId}/details`, {
      name: 'Sold with its files',
      user: heir.id,
    });
    expect(details.status, details.text).toBe(200);

    // Both URLs were issued before the change and never used: the daemon now refuses them.
    const oldDownload = await fetch(download.body.attributes.url as string);
    expect(oldDownload.status).toBe(403);
    expect(await oldDownload.json()).toEqual({ error: 'The token provided is not valid or has expired.' });
    const form = new FormData();
    form.append('files', new Blob(['planted']), 'planted.txt');
    const oldUpload = await fetch(`${upload.body.attributes.url as string}&directory=/`, {
      method: 'POST',
      body: form,
    });
    expect(oldUpload.status).toBe(403);
    const server = await panel.ctx.repositories.servers.findById(internalId);
    expect(existsSync(path.join(daemon.node.daemon_base, server!.uuid, 'planted.txt'))).toBe(false);

    // The previous owner's list no longer has it; the new owner's has it, with a working console
    // and download URL.
    const oldList = await client.get('/api/client');
    expect(oldList.body.data.map((s: any) => s.attributes.identifier)).not.toContain(identifier);
    expect((await client.get(`/api/client/servers/${identifier}/websocket`)).status).toBe(404);
    const heirClient = new TestClient(panel.url);
    await heirClient.login(heir.username, 'hunter2hunter2');
    const heirList = await heirClient.get('/api/client');
    expect(heirList.body.data.map((s: any) => s.attributes.identifier)).toEqual([identifier]);
    const heirSocket = await consoleOf(identifier, heirClient);
    await acknowledged(heirSocket);
    expect(heirSocket.messages.some((m) => m.event === 'jwt error')).toBe(false);
    heirSocket.close();
    const heirDownload = await heirClient.get(
      `/api/client/servers/${identifier}/files/download?file=server.js`,
    );
    const file = await fetch(heirDownload.body.attributes.url as string);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('Talon demo game server');
  });

  // Reference §3.3/§3.4 and Wings protocol §3.5: a root admin's token carries
  // admin.websocket.install, so the real daemon streams the installer's output to them; the
  // owner's `*` does not include it.
  it("streams a reinstall's installer output to a root admin's console, not to the owner's", async () => {
    const { identifier } = await installedServer('Install watch');
    const rootClient = await panel.signedIn(await panel.createUser({ admin: true }));
    const details = await rootClient.get(`/api/client/servers/${identifier}`);
    expect(details.body.meta.user_permissions).toEqual([
      '*',
      'admin.websocket.errors',
      'admin.websocket.install',
      'admin.websocket.transfer',
    ]);
    const rootSocket = await consoleOf(identifier, rootClient);
    const ownerSocket = await consoleOf(identifier, client);
    const reinstall = await client.post(`/api/client/servers/${identifier}/settings/reinstall`);
    expect(reinstall.status, reinstall.text).toBe(202);
    await rootSocket.waitFor(
      (m) => m.event === 'install output' && /^Installed server\.js/u.test(m.args?.[0] ?? ''),
      60_000,
    );
    await rootSocket.waitFor((m) => m.event === 'install completed', 60_000);
    // The daemon sends each socket its events in order: once the owner saw the install complete,
    // any installer line meant for it would already be there.
    await ownerSocket.waitFor((m) => m.event === 'install started', 60_000);
    await ownerSocket.waitFor((m) => m.event === 'install completed', 60_000);
    expect(ownerSocket.messages.filter((m) => m.event === 'install output')).toEqual([]);
    rootSocket.close();
    ownerSocket.close();
  });

  it('hides servers from users with no relation to them', async () => {
    const stranger = new TestClient(panel.url);
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    await stranger.login(user.username, 'hunter2hunter2');
    const list = await client.get('/api/client');
    const mine = list.body.data.map((s: any) => s.attributes.identifier as string);
    expect(mine.length).toBeGreaterThan(0);
    const probe = await stranger.get(`/api/client/servers/${mine[0]}`);
    expect(probe.status).toBe(404);
    expect((await stranger.get('/api/client')).body.data).toEqual([]);
  });

  it('answers a clear 5xx naming the node when its daemon is down, without hanging', async () => {
    const list = await client.get('/api/client');
    const id = list.body.data[0].attributes.identifier as string;
    await daemon.stop();
    const res = await client.get(`/api/client/servers/${id}/resources`);
    expect(res.status).toBe(504);
    expect(firstError(res).code).toBe('DaemonConnectionException');
    expect(firstError(res).detail).toContain('node "Local"');
  });
});
