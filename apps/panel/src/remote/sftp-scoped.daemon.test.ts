import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decrypt } from '../lib/crypto.ts';
import type { Server, User } from '../db/types.ts';
import { TestClient } from '../test-support/client.ts';
import type { TestDaemon } from '../test-support/daemon.ts';
import { startServerWorld, type ServerWorld } from '../test-support/daemon-servers.ts';
import { addSubuser } from '../test-support/fixtures.ts';
import type { TestPanel } from '../test-support/panel.ts';

// Folder-scoped SFTP end to end: the panel's /sftp/auth answer carries a subuser's folders
// (`file_paths`, our extension) and the real daemon keeps the real SFTP session inside them.
let world: ServerWorld;
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let builder: User;
let server: Server;
let root: string;
const PASSWORD = 'sftp-scoped-pw';
const PERMISSION_DENIED = 3;
const clients: ssh2.Client[] = [];

beforeAll(async () => {
  world = await startServerWorld({ owner: { password: PASSWORD } });
  ({ panel, daemon, owner, server, root } = world);
  builder = await panel.createUser({ password: PASSWORD });
  await addSubuser(
    panel.ctx,
    server,
    builder,
    ['file.sftp', 'file.read', 'file.read-content', 'file.create'],
    {
      filePaths: ['/plugins'],
    },
  );
  mkdirSync(path.join(root, 'plugins'), { recursive: true });
  writeFileSync(path.join(root, 'server.properties'), 'rcon.password=secret\n');
  writeFileSync(path.join(root, 'plugins/a.jar'), 'jar');
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.end();
  await world?.close();
});

function connect(username: string): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    clients.push(client);
    client.once('error', reject);
    client.once('ready', () => client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))));
    client.connect({
      host: '127.0.0.1',
      port: daemon.node.daemon_sftp,
      username,
      password: PASSWORD,
      tryKeyboard: false,
      readyTimeout: 15_000,
    });
  });
}

const list = (s: SFTPWrapper, p: string) =>
  new Promise<string[]>((res, rej) =>
    s.readdir(p, (e, l) => (e ? rej(e) : res(l.map((x) => x.filename).sort()))),
  );
const read = (s: SFTPWrapper, p: string) =>
  new Promise<string>((res, rej) => s.readFile(p, (e, d) => (e ? rej(e) : res(d.toString()))));
const write = (s: SFTPWrapper, p: string, data: string) =>
  new Promise<void>((res, rej) => s.writeFile(p, data, (e) => (e ? rej(e) : res())));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok' as const,
    (e: { code?: number }) => e.code ?? -1,
  );

describe('POST /api/remote/sftp/auth', () => {
  it('answers a limited subuser with its folders, and everyone else without the field', async () => {
    const node = TestClient.withKey(
      panel.url,
      `${daemon.node.daemon_token_id}.${decrypt(panel.ctx.config.appKey, daemon.node.daemon_token)}`,
    );
    const ask = (user: User) =>
      node.post('/api/remote/sftp/auth', {
        type: 'password',
        username: `${user.username}.${server.uuid_short}`,
        password: PASSWORD,
      });
    const scoped = await ask(builder);
    expect(scoped.status, scoped.text).toBe(200);
    expect(scoped.body.file_paths).toEqual(['/plugins']);
    const whole = await ask(owner);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body).not.toHaveProperty('file_paths');
  });
});

describe('a real SFTP session of a subuser limited to /plugins', () => {
  it('sees and uses /plugins only', async () => {
    const sftp = await connect(`${builder.username}.${server.uuid_short}`);
    expect(await list(sftp, '/')).toEqual(['plugins']);
    expect(await read(sftp, '/plugins/a.jar')).toBe('jar');
    await write(sftp, '/plugins/b.yml', 'b');
    expect(existsSync(path.join(root, 'plugins/b.yml'))).toBe(true);
    expect(await codeOf(read(sftp, '/server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(read(sftp, '/plugins/../server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(write(sftp, '/eula.txt', 'x'))).toBe(PERMISSION_DENIED);
    expect(existsSync(path.join(root, 'eula.txt'))).toBe(false);

    const ownerSftp = await connect(`${owner.username}.${server.uuid_short}`);
    expect(await read(ownerSftp, '/server.properties')).toBe('rcon.password=secret\n');
  });
});
