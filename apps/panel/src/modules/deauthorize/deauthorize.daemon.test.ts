import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../../db/types.ts';
import { TestClient } from '../../test-support/client.ts';
import { startServerWorld, type ServerWorld } from '../../test-support/daemon-servers.ts';
import { addSubuser, applicationClient } from '../../test-support/fixtures.ts';
import { openSftp, type SftpSession } from '../../test-support/sftp.ts';
import { mailText, startSmtpServer } from '../../test-support/smtp.ts';
import { TestSocket } from '../../test-support/socket.ts';

// A user whose access shrinks loses it on the node at once (protocol §9.2b, GHSA-8c39-xppg-479c,
// GHSA-hr7j-63v7-vj7g): the panel calls the real daemon's POST /api/deauthorize-user when a
// subuser is removed or their permissions change, when a password changes and when an account is
// deleted. Open consoles close and SFTP sessions end; other users' stay.
let world: ServerWorld;
let server: Server;
let ownerClient: TestClient;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const PASSWORD = 'deauthorize test password';
const opened: { end: () => void }[] = [];

const base = () => `/api/client/servers/${server.uuid_short}`;
const SUBUSER = ['websocket.connect', 'control.console', 'file.sftp', 'file.read'];

interface Member {
  user: User;
  client: TestClient;
  socket: TestSocket;
  /** Resolves with the close code when the daemon closes the console. */
  socketClosed: Promise<number>;
  sftp: SftpSession;
}

/** A subuser of the server with an authenticated console and an SFTP session open. */
async function member(permissions = SUBUSER): Promise<Member> {
  const user = await world.panel.createUser({ password: PASSWORD });
  await addSubuser(world.panel.ctx, server, user, permissions);
  const client = await world.panel.signedIn(user);
  const { token, socket: url } = (await client.get(`${base()}/websocket`)).body.data;
  const socket = await TestSocket.open(url as string, world.panel.url);
  opened.push({ end: () => socket.close() });
  const socketClosed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
  socket.send('auth', token as string);
  await socket.waitFor((m) => m.event === 'auth success');
  const sftp = await openSftp(
    world.daemon.node.daemon_sftp,
    `${user.username}.${server.uuid_short}`,
    PASSWORD,
  );
  opened.push(sftp);
  return { user, client, socket, socketClosed, sftp };
}

/** The console still answers and the SFTP session still lists: nothing of this member was ended. */
async function stillConnected(m: Member): Promise<void> {
  const from = m.socket.mark();
  m.socket.send('send stats');
  await m.socket.waitFor((msg) => msg.event === 'stats', 30_000, from);
  expect(await m.sftp.readdir('/')).toEqual(expect.any(Array));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  world = await startServerWorld({
    owner: { password: PASSWORD },
    env: { MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port), MAIL_ENCRYPTION: 'none' },
  });
  ({ server, ownerClient } = world);
}, 120_000);

afterAll(async () => {
  for (const o of opened) o.end();
  await world?.close();
  await smtp?.close();
});

describe('subusers', () => {
  it('removed: their console closes and their SFTP session ends; another subuser keeps theirs', async () => {
    const gone = await member();
    const stays = await member();
    const res = await ownerClient.delete(`${base()}/users/${gone.user.uuid}`);
    expect(res.status, res.text).toBe(204);
    await gone.socketClosed;
    await gone.sftp.closed;
    await stillConnected(stays);
  });

  it('permissions changed: the console closes, and a token fetched at once carries the new grant', async () => {
    const changed = await member();
    const res = await ownerClient.post(`${base()}/users/${changed.user.uuid}`, {
      permissions: ['websocket.connect', 'file.sftp'],
    });
    expect(res.status, res.text).toBe(200);
    await changed.socketClosed;
    await changed.sftp.closed;
    // What the web app does next: new credentials, in the same second as the denial or not.
    const { token, socket: url } = (await changed.client.get(`${base()}/websocket`)).body.data;
    const claims = JSON.parse(Buffer.from((token as string).split('.')[1]!, 'base64url').toString()) as {
      permissions: string[];
    };
    expect(claims.permissions).toEqual(['websocket.connect', 'file.sftp']);
    const again = await TestSocket.open(url as string, world.panel.url);
    opened.push({ end: () => again.close() });
    again.send('auth', token as string);
    await again.waitFor((m) => m.event === 'auth success');
  });
});

describe('passwords and accounts', () => {
  it('a password changed in the account: consoles close and SFTP sessions end', async () => {
    const m = await member();
    const other = await member();
    const res = await m.client.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(res.status, res.text).toBe(204);
    await m.socketClosed;
    await m.sftp.closed;
    await stillConnected(other);
  });

  it('a password set through the application API: the same', async () => {
    const m = await member();
    const app = await applicationClient(world.panel);
    const res = await app.request('PATCH', `/api/application/users/${m.user.id}`, {
      email: m.user.email,
      username: m.user.username,
      first_name: 'First',
      last_name: 'Last',
      password: 'set by the billing module',
    });
    expect(res.status, res.text).toBe(200);
    await m.socketClosed;
    await m.sftp.closed;
  });

  it('a password reset through the mailed link: the same', async () => {
    const m = await member();
    const asker = new TestClient(world.panel.url);
    await asker.get('/sanctum/csrf-cookie');
    expect((await asker.post('/auth/password', { email: m.user.email })).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!smtp.mails.some((x) => x.to.includes(m.user.email)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const mail = smtp.mails.find((x) => x.to.includes(m.user.email));
    const token = /\/auth\/password\/reset\/([A-Za-z0-9]+)/u.exec(mailText(mail!.raw))![1]!;
    const res = await asker.post('/auth/password/reset', {
      token,
      email: m.user.email,
      password: 'reset by mail',
      password_confirmation: 'reset by mail',
    });
    expect(res.status, res.text).toBe(200);
    await m.socketClosed;
    await m.sftp.closed;
  });

  it('an account deleted through the application API: its console and SFTP session end', async () => {
    const m = await member();
    const app = await applicationClient(world.panel);
    const res = await app.delete(`/api/application/users/${m.user.id}`);
    expect(res.status, res.text).toBe(204);
    await m.socketClosed;
    await m.sftp.closed;
  });
});

describe('root admins', () => {
  it("a root admin's rights removed (by another root admin): their console on a server they do not own closes", async () => {
    const admin = await world.panel.createUser({ admin: true, password: PASSWORD });
    const client = await world.panel.signedIn(admin);
    const { token, socket: url } = (await client.get(`${base()}/websocket`)).body.data;
    const socket = await TestSocket.open(url as string, world.panel.url);
    opened.push({ end: () => socket.close() });
    const socketClosed = new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    socket.send('auth', token as string);
    await socket.waitFor((m) => m.event === 'auth success');
    const other = await world.panel.signedIn(await world.panel.createUser({ admin: true }));
    const res = await other.request('PATCH', `/api/application/users/${admin.id}`, {
      email: admin.email,
      username: admin.username,
      first_name: 'Former',
      last_name: 'Admin',
      root_admin: false,
    });
    expect(res.status, res.text).toBe(200);
    await socketClosed;
  });
});

describe('owners', () => {
  // Last: the server changes hands.
  it("a server given to another owner: the previous owner's console closes and SFTP session ends", async () => {
    const { token, socket: url } = (await ownerClient.get(`${base()}/websocket`)).body.data;
    const socket = await TestSocket.open(url as string, world.panel.url);
    opened.push({ end: () => socket.close() });
    const socketClosed = new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    socket.send('auth', token as string);
    await socket.waitFor((m) => m.event === 'auth success');
    const sftp = await openSftp(
      world.daemon.node.daemon_sftp,
      `${world.owner.username}.${server.uuid_short}`,
      PASSWORD,
    );
    opened.push(sftp);
    const next = await world.panel.createUser();
    const app = await applicationClient(world.panel);
    const res = await app.request('PATCH', `/api/application/servers/${server.id}/details`, {
      name: server.name,
      user: next.id,
    });
    expect(res.status, res.text).toBe(200);
    await socketClosed;
    await sftp.closed;
  });
});
