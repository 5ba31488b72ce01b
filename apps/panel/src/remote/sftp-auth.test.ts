import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../db/types.ts';
import { ensureLocalNode } from '../embedded/local-node.ts';
import { decrypt } from '../lib/crypto.ts';
import { firstError, TestClient } from '../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { SFTP_AUTH_ATTEMPTS } from './sftp-auth.ts';

const PASSWORD = 'correct horse battery';
const BAD = 'Authorization credentials were not correct, please try again.';

let panel: TestPanel;
let nodeA: Node;
let nodeB: Node;
let egg: Egg;
let owner: User;
let server: Server;
let ownerKey: { public: string; private: string };

const clientFor = (node: Node) =>
  TestClient.withKey(
    panel.url,
    `${node.daemon_token_id}.${decrypt(panel.ctx.config.appKey, node.daemon_token)}`,
  );

const auth = (body: Record<string, unknown>, node = nodeA) =>
  clientFor(node).post('/api/remote/sftp/auth', {
    ip: '203.0.113.9:51000',
    session_id: 'c2Vzc2lvbg==',
    client_version: 'U1NILTIuMC1PcGVuU1NI',
    ...body,
  });

const pw = (username: string, password = PASSWORD, node = nodeA) =>
  auth({ type: 'password', username, password }, node);

async function events(name: string): Promise<number> {
  const rows = await panel.ctx.db.db
    .selectFrom('activity_logs')
    .select('id')
    .where('event', '=', name)
    .execute();
  return rows.length;
}

async function newServer(ownerId: number, overrides: Partial<Server> = {}): Promise<Server> {
  return serverRow(panel.ctx, nodeA, egg, ownerId, { name: 'SFTP test', ...overrides });
}

function keyPair(): { public: string; private: string } {
  let pair = ssh2.utils.generateKeyPairSync('ed25519');
  // ssh2 now and then drops a leading zero byte of the key (31 bytes, refused by every SSH stack).
  while (Buffer.from(pair.public.split(' ')[1] ?? '', 'base64').length !== 51) {
    pair = ssh2.utils.generateKeyPairSync('ed25519');
  }
  return { public: `${pair.public}\n`, private: pair.private };
}

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node: nodeA } = await ensureLocalNode(panel.ctx, {
    daemonPort: 18082,
    sftpPort: 12023,
    ports: [43100, 43120],
  }));
  nodeB = await panel.ctx.db.db
    .insertInto('nodes')
    .values({
      ...nodeA,
      id: undefined,
      uuid: crypto.randomUUID(),
      name: 'Other',
      daemon_token_id: 'otherNodeSftp001',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  ({ egg } = await nodeAndEgg(panel.ctx, [43100, 43120]));
  owner = await panel.createUser({ username: 'first.last' });
  server = await newServer(owner.id);
  ownerKey = keyPair();
  const client = await panel.signedIn(owner);
  const added = await client.post('/api/client/account/ssh-keys', {
    name: 'laptop',
    public_key: ownerKey.public,
  });
  expect(added.status).toBe(200);
});
afterAll(async () => {
  await panel.close();
});

describe('POST /api/remote/sftp/auth', () => {
  it('accepts the owner with a password (short id or uuid, name split at the last dot)', async () => {
    const res = await pw(`first.last.${server.uuid_short}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ server: server.uuid, user: owner.uuid, permissions: ['*'] });
    const full = await pw(`First.Last.${server.uuid}`);
    expect(full.status).toBe(200);
    expect(full.body.server).toBe(server.uuid);
  });

  it('refuses a wrong password with 403 and logs auth:sftp.fail', async () => {
    const before = await events('auth:sftp.fail');
    const res = await pw(`first.last.${server.uuid_short}`, 'not the password');
    expect(res.status).toBe(403);
    expect(firstError(res).detail).toBe(BAD);
    expect(await events('auth:sftp.fail')).toBe(before + 1);
  });

  it('refuses unknown users, unknown servers and servers of another node alike', async () => {
    for (const res of [
      await pw(`nobody.${server.uuid_short}`),
      await pw('first.last.zzzzzzzz'),
      await pw(`first.last.${server.uuid_short}`, PASSWORD, nodeB),
    ]) {
      expect(res.status).toBe(403);
      expect(firstError(res).detail).toBe(BAD);
    }
  });

  it('needs a server part (400) and a known type (422)', async () => {
    expect((await pw('first')).status).toBe(400);
    expect(
      (await auth({ type: 'keyboard', username: `first.last.${server.uuid_short}`, password: 'x' })).status,
    ).toBe(422);
  });

  it("accepts a public key stored on the user's account and refuses others", async () => {
    const ok = await auth({
      type: 'public_key',
      username: `first.last.${server.uuid_short}`,
      password: ownerKey.public,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toBe(owner.uuid);
    const stranger = await auth({
      type: 'public_key',
      username: `first.last.${server.uuid_short}`,
      password: keyPair().public,
    });
    expect(stranger.status).toBe(403);
    expect(firstError(stranger).detail).toBe(BAD);
    // the owner's key does not open another user's account
    const other = await panel.createUser();
    const otherServer = await newServer(other.id);
    const wrongUser = await auth({
      type: 'public_key',
      username: `${other.username}.${otherServer.uuid_short}`,
      password: ownerKey.public,
    });
    expect(wrongUser.status).toBe(403);
  });

  it('lets subusers in only with file.sftp (else 403 and server:sftp.denied)', async () => {
    const sub = await panel.createUser();
    const row = await addSubuser(panel.ctx, server, sub, ['file.read']);
    const before = await events('server:sftp.denied');
    const denied = await pw(`${sub.username}.${server.uuid_short}`);
    expect(denied.status).toBe(403);
    expect(await events('server:sftp.denied')).toBe(before + 1);

    await panel.ctx.db.db
      .updateTable('subusers')
      .set({ permissions: JSON.stringify(['file.sftp', 'file.read', 'file.read-content']) })
      .where('id', '=', row.id)
      .execute();
    const ok = await pw(`${sub.username}.${server.uuid_short}`);
    expect(ok.status).toBe(200);
    expect(ok.body.permissions).toEqual(['file.sftp', 'file.read', 'file.read-content']);

    // a user with no relation to the server gets the same answer as a denied subuser
    const stranger = await panel.createUser();
    expect((await pw(`${stranger.username}.${server.uuid_short}`)).status).toBe(403);
  });

  it('lets root admins in with every permission', async () => {
    const admin = await panel.createUser({ admin: true });
    const res = await pw(`${admin.username}.${server.uuid_short}`);
    expect(res.status).toBe(200);
    expect(res.body.permissions).toContain('*');
  });

  it('answers 409 for suspended or installing servers', async () => {
    const suspended = await newServer(owner.id, { status: 'suspended' });
    const res = await pw(`first.last.${suspended.uuid_short}`);
    expect(res.status).toBe(409);
    expect(firstError(res).detail).toContain('suspended');
    const installing = await newServer(owner.id, { status: 'installing', installed_at: null });
    expect((await pw(`first.last.${installing.uuid_short}`)).status).toBe(409);
  });

  it('an unparsable key counts towards the throttle', async () => {
    const target = await newServer(owner.id);
    const name = `first.last.${target.uuid_short}`;
    for (let i = 0; i < SFTP_AUTH_ATTEMPTS; i++) {
      expect(
        (await auth({ type: 'public_key', username: name, password: 'ssh-ed25519 not-a-key' })).status,
      ).toBe(403);
    }
    expect((await pw(name)).status).toBe(429);
  });

  it('counts parallel wrong passwords atomically: at most the allowed attempts get a password check', async () => {
    const target = await newServer(owner.id);
    const name = `first.last.${target.uuid_short}`;
    const answers = await Promise.all(Array.from({ length: 30 }, () => pw(name, 'wrong')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(SFTP_AUTH_ATTEMPTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - SFTP_AUTH_ATTEMPTS);
    // The right password is refused too while the window lasts.
    expect((await pw(name)).status).toBe(429);
  });

  it('throttles failed attempts per server and caller (429), unregistered valid keys do not count', async () => {
    const target = await newServer(owner.id);
    const name = `first.last.${target.uuid_short}`;
    for (let i = 0; i < SFTP_AUTH_ATTEMPTS + 2; i++) {
      expect((await auth({ type: 'public_key', username: name, password: keyPair().public })).status).toBe(
        403,
      );
    }
    for (let i = 0; i < SFTP_AUTH_ATTEMPTS; i++) expect((await pw(name, 'wrong')).status).toBe(403);
    const locked = await pw(name);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // other servers are not affected
    expect((await pw(`first.last.${server.uuid_short}`)).status).toBe(200);
    // nor other SFTP clients of the same server (the count is per client address too)
    const elsewhere = await auth({
      type: 'password',
      username: name,
      password: PASSWORD,
      ip: '198.51.100.7:40000',
    });
    expect(elsewhere.status).toBe(200);
    // the port does not matter: the same client on another port is still locked out
    expect(
      (await auth({ type: 'password', username: name, password: PASSWORD, ip: '203.0.113.9:51001' })).status,
    ).toBe(429);
  });
});
