import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { expectError, type Res, type TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../../test-support/daemon-servers.ts';
import { applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { openSftp, type SftpSession } from '../../test-support/sftp.ts';
import { TestSocket } from '../../test-support/socket.ts';

// A subuser has exactly the powers granted, in the panel, on the daemon's websocket and over SFTP,
// and a change of them takes effect at once: one real panel and one real daemon running the
// built-in game server.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let ownerClient: TestClient;
let server: Server;
const PASSWORD = 'subuser sftp password';
const sessions: SftpSession[] = [];
const sockets: TestSocket[] = [];

const base = () => `/api/client/servers/${server.uuid_short}`;

/** A new account made a subuser through the API by the owner, and a client signed in as it. */
async function subuser(permissions: string[]): Promise<{ user: User; client: TestClient }> {
  const user = await panel.createUser({ password: PASSWORD });
  const res = await ownerClient.post(`${base()}/users`, { email: user.email, permissions });
  expect(res.status, res.text).toBe(200);
  return { user, client: await panel.signedIn(user) };
}

/** The claims of a JWT (the daemon checks the signature; the test only reads them). */
function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** The console of the server with a token the panel gave `as`. */
async function consoleAs(as: TestClient): Promise<TestSocket> {
  const { token, socket: url } = (await as.get(`${base()}/websocket`)).body.data;
  const socket = await TestSocket.open(url, panel.url);
  sockets.push(socket);
  socket.send('auth', token);
  await socket.waitFor((m) => m.event === 'auth success');
  return socket;
}

/**
 * Waits until the daemon has handled every frame sent so far: it handles them in order, so the
 * answer to a later 'send stats' acknowledges that an earlier frame was acted on or ignored.
 */
async function acknowledged(socket: TestSocket): Promise<void> {
  const from = socket.mark();
  socket.send('send stats');
  await socket.waitFor((m) => m.event === 'stats' || m.event === 'jwt error', 30_000, from);
}

/**
 * Sends a console command over `socket` and says whether the server ran it. The owner then sends a
 * marker command over HTTP: the server reads its input in order, so once the marker's echo is back
 * the first command's echo would be too, had it been passed on.
 */
async function commandRan(socket: TestSocket, word: string): Promise<boolean> {
  const from = socket.mark();
  socket.send('send command', `say ${word}`);
  await acknowledged(socket);
  const marker = `marker${Math.random().toString(36).slice(2)}`;
  expect((await ownerClient.post(`${base()}/command`, { command: `say ${marker}` })).status).toBe(204);
  const output = (text: string) => (m: { event: string; args?: string[] }) =>
    m.event === 'console output' && (m.args?.[0] ?? '').includes(text);
  await socket.waitFor(output(marker), 30_000, from);
  return socket.messages.slice(from).some(output(word));
}

const sftpLogin = (user: User) =>
  openSftp(daemon.node.daemon_sftp, `${user.username}.${server.uuid_short}`, PASSWORD);
async function sftpAs(user: User): Promise<SftpSession> {
  const session = await sftpLogin(user);
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx);
  const egg = await gameServerEgg(panel.ctx);
  owner = await panel.createUser({ password: PASSWORD });
  ownerClient = await panel.signedIn(owner);
  const app = await applicationClient(panel);
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, egg, await freeAllocation(panel.ctx, daemon.node), { name: 'Shared world' }),
  );
  expect(created.status, created.text).toBe(201);
  server = (await panel.ctx.repositories.servers.findByIdentifier(created.body.attributes.identifier))!;
  await waitUntil(
    'the installation',
    () => ownerClient.get(base()),
    (r) => r.body.attributes.status === null,
  );
  const owners = await consoleAs(ownerClient);
  const from = owners.mark();
  expect((await ownerClient.post(`${base()}/power`, { signal: 'start' })).status).toBe(204);
  await owners.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 60_000, from);
}, 180_000);

afterAll(async () => {
  for (const s of sessions) s.end();
  for (const s of sockets) s.close();
  await daemon?.stop();
  await panel?.close();
});

/** One request of each permission group the panel serves, and what a granted one answers. */
const PANEL_CHECKS: { permission: string; request: (c: TestClient) => Promise<Res>; ok: number }[] = [
  {
    permission: 'control.console',
    request: (c) => c.post(`${base()}/command`, { command: 'say hi' }),
    ok: 204,
  },
  { permission: 'user.read', request: (c) => c.get(`${base()}/users`), ok: 200 },
  { permission: 'file.read', request: (c) => c.get(`${base()}/files/list?directory=/`), ok: 200 },
  { permission: 'allocation.read', request: (c) => c.get(`${base()}/network/allocations`), ok: 200 },
  { permission: 'startup.read', request: (c) => c.get(`${base()}/startup`), ok: 200 },
  {
    permission: 'settings.rename',
    request: (c) => c.post(`${base()}/settings/rename`, { name: 'Shared world' }),
    ok: 204,
  },
  { permission: 'activity.read', request: (c) => c.get(`${base()}/activity`), ok: 200 },
  { permission: 'backup.read', request: (c) => c.get(`${base()}/backups`), ok: 200 },
];

describe('a subuser has exactly the powers granted', () => {
  it('in the panel: each group refused without its permission, allowed with it', async () => {
    const { client: none } = await subuser(['websocket.connect']);
    for (const check of PANEL_CHECKS) {
      expectError(
        await check.request(none),
        403,
        'AccessDeniedHttpException',
        'This action is unauthorized.',
      );
      const { client: granted } = await subuser([check.permission]);
      const res = await check.request(granted);
      expect(res.status, `${check.permission}: ${res.text}`).toBe(check.ok);
    }
  });

  it('on the websocket: the token carries exactly the stored permissions; commands need control.console', async () => {
    const { client: watcher } = await subuser(['websocket.connect']);
    const token = (await watcher.get(`${base()}/websocket`)).body.data.token as string;
    expect(claims(token).permissions).toEqual(['websocket.connect']);
    const watching = await consoleAs(watcher);
    expect(await commandRan(watching, 'from-the-watcher')).toBe(false);
    // The power buttons are ignored as well.
    const from = watching.mark();
    watching.send('set state', 'stop');
    await acknowledged(watching);
    expect(
      watching.messages.slice(from).some((m) => m.event === 'status' && m.args?.[0] === 'stopping'),
    ).toBe(false);

    const { client: operator } = await subuser(['control.console']);
    const operatorToken = (await operator.get(`${base()}/websocket`)).body.data.token as string;
    expect(claims(operatorToken).permissions).toEqual(['control.console', 'websocket.connect']);
    expect(await commandRan(await consoleAs(operator), 'from-the-operator')).toBe(true);
  });

  it('over SFTP: no login without file.sftp; inside, each file permission is needed', async () => {
    const { user: noSftp } = await subuser(['file.read', 'file.create']);
    await expect(sftpLogin(noSftp)).rejects.toThrow(/authentication methods failed/iu);
    const { user: sftpOnly } = await subuser(['file.sftp']);
    const bare = await sftpAs(sftpOnly);
    await expect(bare.readdir('/')).rejects.toThrow(/permission denied/iu);
    await expect(bare.writeFile('/bare.txt', 'x')).rejects.toThrow(/permission denied/iu);
    const { user: writer } = await subuser(['file.sftp', 'file.read', 'file.create']);
    const session = await sftpAs(writer);
    await session.writeFile('/from-the-writer.txt', 'hello');
    expect(await session.readdir('/')).toContain('from-the-writer.txt');
  });
});

describe('a change of permissions takes effect at once', () => {
  it('an open console closes the moment the owner takes control.console away', async () => {
    const { user, client } = await subuser(['control.console']);
    const socket = await consoleAs(client);
    const closed = new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    expect(await commandRan(socket, 'before-the-change')).toBe(true);
    const res = await ownerClient.post(`${base()}/users/${user.uuid}`, { permissions: ['file.read'] });
    expect(res.status, res.text).toBe(200);
    // The daemon ends the console at once (deauthorize-user); its token is refused from then on.
    await closed;
    // A new token, as the web app fetches next (in the second of the change or not), carries only
    // what is granted now.
    const fresh = (await client.get(`${base()}/websocket`)).body.data.token as string;
    expect(claims(fresh).permissions).toEqual(['file.read', 'websocket.connect']);
    expect(await commandRan(await consoleAs(client), 'after-the-change')).toBe(false);
    expect(socket.messages.some((m) => (m.args?.[0] ?? '').includes('after-the-change'))).toBe(false);
  });

  it('open SFTP sessions end when the permissions change or the subuser is removed', async () => {
    const { user } = await subuser(['file.sftp', 'file.read']);
    const first = await sftpAs(user);
    expect(await first.readdir('/')).toEqual(expect.any(Array));
    expect(
      (await ownerClient.post(`${base()}/users/${user.uuid}`, { permissions: ['file.sftp'] })).status,
    ).toBe(200);
    await first.closed;
    // Signing in again works with what is granted now: listing is no longer allowed.
    const second = await sftpAs(user);
    await expect(second.readdir('/')).rejects.toThrow(/permission denied/iu);
    expect((await ownerClient.delete(`${base()}/users/${user.uuid}`)).status).toBe(204);
    await second.closed;
    await expect(sftpLogin(user)).rejects.toThrow(/authentication methods failed/iu);
  });
});
