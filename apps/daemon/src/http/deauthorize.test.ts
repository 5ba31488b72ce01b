import { randomUUID } from 'node:crypto';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startStack, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';

/**
 * `POST /api/deauthorize-user` (protocol §9.2b; GHSA-hr7j-63v7-vj7g / GHSA-8c39-xppg-479c: access
 * outlived permission removal, account deletion and password changes) on a real daemon: the user's
 * open console sockets and SFTP sessions end, their tokens issued until then are refused, newer
 * ones work, and other users are untouched.
 */
describe('POST /api/deauthorize-user (real daemon)', () => {
  let stack: Stack;
  let uuid: string;
  let other: string;
  let sftpPort: number;
  beforeAll(async () => {
    stack = await startStack({ forceNoBwrap: true });
    uuid = await stack.createInstalled();
    other = await stack.createInstalled();
    sftpPort = await stack.daemon.listenSftp(0);
  }, 60_000);
  afterAll(async () => {
    await stack?.dispose();
  });

  /** An SFTP login of `user` into `server`, open; resolves its client once the subsystem is up. */
  const sftpSession = async (user: string, server: string): Promise<InstanceType<typeof ssh2.Client>> => {
    const username = `deauth${stack.remote.sftpAccounts.length}`;
    stack.remote.sftpAccounts.push({
      username,
      password: 'secret',
      publicKeys: [],
      server,
      user,
      permissions: ['*'],
    });
    const client = new ssh2.Client();
    await new Promise<void>((resolve, reject) => {
      client.once('error', reject);
      client.once('ready', () => client.sftp((err) => (err ? reject(err) : resolve())));
      client.connect({
        host: '127.0.0.1',
        port: sftpPort,
        username: `${username}.${server.slice(0, 8)}`,
        password: 'secret',
        tryKeyboard: false,
        readyTimeout: 10_000,
      });
    });
    return client;
  };
  const closed = (client: InstanceType<typeof ssh2.Client>) =>
    new Promise<void>((r) => client.once('close', () => r()));

  /** A console socket authenticated as `user` on `server`. */
  const openConsole = async (user: string, server: string) => {
    const ws = await stack.ws(server);
    ws.send('auth', await stack.token(server, { user_uuid: user }));
    await ws.waitFor((m) => m.event === 'auth success');
    const code = new Promise<number>((r) => ws.socket.once('close', (c) => r(c)));
    return { ws, code };
  };

  const uploadToken = (user: string, claims: Record<string, unknown> = {}) => {
    const now = Date.now();
    return signToken(TOKEN, {
      scope: 'file-upload',
      iat: Math.floor(now / 1000),
      issued_at_ms: now,
      exp: Math.floor(now / 1000) + 600,
      unique_id: randomUUID(),
      server_uuid: uuid,
      user_uuid: user,
      ...claims,
    });
  };
  const upload = async (t: string) => {
    const form = new FormData();
    form.append('files', new Blob(['x']), 'deauth.txt');
    return fetch(`${stack.url}/upload/file?token=${encodeURIComponent(t)}&directory=/`, {
      method: 'POST',
      body: form,
    });
  };

  it("ends the user's sockets and SFTP sessions on the server, refuses their old tokens, accepts new ones", async () => {
    const user = randomUUID();
    const bystander = randomUUID();
    const mine = await openConsole(user, uuid);
    const mineElsewhere = await openConsole(user, other);
    const theirs = await openConsole(bystander, uuid);
    const session = await sftpSession(user, uuid);
    const sessionEnded = closed(session);
    const theirSession = await sftpSession(bystander, uuid);
    const oldSocketToken = await stack.token(uuid, { user_uuid: user });
    const oldUrl = await uploadToken(user);

    const res = await stack.api('POST', '/api/deauthorize-user', { user, servers: [uuid] });
    expect(res.status).toBe(204);

    expect(await mine.code).toBe(1008);
    expect(mine.ws.messages.at(-1)).toEqual({
      event: 'jwt error',
      args: ['jwt: created too far in past (denylist)'],
    });
    await sessionEnded;
    // the old tokens are refused
    const again = await stack.ws(uuid);
    again.send('auth', oldSocketToken);
    await again.waitFor(
      (m) => m.event === 'jwt error' && m.args?.[0] === 'jwt: created too far in past (denylist)',
    );
    expect((await upload(oldUrl)).status).toBe(403);
    // tokens issued after the call work (the panel issues them only if access remains)
    const later = Date.now();
    again.send(
      'auth',
      await stack.token(uuid, { user_uuid: user, issued_at_ms: later, iat: Math.floor(later / 1000) }),
    );
    await again.waitFor((m) => m.event === 'auth success');
    expect((await upload(await uploadToken(user))).status).toBe(200);

    // the bystander and the user's other server are untouched
    for (const ws of [theirs.ws, mineElsewhere.ws]) {
      const from = ws.messages.length;
      ws.send('send stats');
      await ws.waitFor((m) => m.event === 'stats', 10_000, from);
    }
    await new Promise<void>((resolve, reject) =>
      theirSession.sftp((err, sftp) =>
        err ? reject(err) : sftp.readdir('/', (e) => (e ? reject(e) : resolve())),
      ),
    );
  });

  it('without servers, every server of the node', async () => {
    const user = randomUUID();
    const a = await openConsole(user, uuid);
    const b = await openConsole(user, other);
    const session = await sftpSession(user, other);
    const sessionEnded = closed(session);
    expect((await stack.api('POST', '/api/deauthorize-user', { user })).status).toBe(204);
    expect([await a.code, await b.code]).toEqual([1008, 1008]);
    await sessionEnded;
  });

  it('a bad body is a 422 in the daemon error format and changes nothing', async () => {
    const user = randomUUID();
    const mine = await openConsole(user, uuid);
    for (const body of [{}, { user: 'not-a-uuid' }, { user, servers: ['nope'] }, { user, servers: uuid }]) {
      const res = await stack.api('POST', '/api/deauthorize-user', body);
      expect([res.status, res.body]).toEqual([
        422,
        { error: 'The data provided in the request could not be validated.' },
      ]);
    }
    const from = mine.ws.messages.length;
    mine.ws.send('send stats');
    await mine.ws.waitFor((m) => m.event === 'stats', 10_000, from);
    // and the node token is required, as on every /api route
    const res = await stack.api('POST', '/api/deauthorize-user', { user }, 'wrong');
    expect(res.status).toBe(403);
  });
});
