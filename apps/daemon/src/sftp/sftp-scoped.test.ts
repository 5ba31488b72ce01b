import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../test-support/harness.ts';

// Folder-scoped SFTP (our extension): the panel's answer to /sftp/auth names the folders a subuser
// may use; the session works inside them only, on where paths really lead (links resolved by the
// jail), not just on the names asked for.
const { Client } = ssh2;

let stack: Stack;
let port: number;
let uuid: string;
let dir: string;
let scoped: SFTPWrapper;
let whole: SFTPWrapper;
const clients: InstanceType<typeof Client>[] = [];

const PERMISSION_DENIED = 3;
const FILE_KEYS = [
  'file.read',
  'file.read-content',
  'file.create',
  'file.update',
  'file.delete',
  'file.sftp',
];

function connect(username: string, password: string): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    clients.push(client);
    client.once('error', reject);
    client.once('ready', () => client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))));
    client.connect({ host: '127.0.0.1', port, username, password, tryKeyboard: false, readyTimeout: 10_000 });
  });
}

async function login(filePaths?: string[]): Promise<SFTPWrapper> {
  const username = `builder${stack.remote.sftpAccounts.length}`;
  stack.remote.sftpAccounts.push({
    username,
    password: 'sftp secret',
    publicKeys: [],
    server: uuid,
    user: randomUUID(),
    permissions: FILE_KEYS,
    ...(filePaths ? { filePaths } : {}),
  });
  return connect(`${username}.${uuid.slice(0, 8)}`, 'sftp secret');
}

/** The SFTP status code of a failed call, or 'ok'. */
async function codeOf(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** A callback-style SFTP call as a promise. */
const done =
  <R>(res: (r: R) => void, rej: (e: Error) => void) =>
  (e: Error | null | undefined, r?: R) =>
    e ? rej(e) : res(r as R);
const op = {
  read: (s: SFTPWrapper, p: string) => new Promise<Buffer>((res, rej) => s.readFile(p, done(res, rej))),
  write: (s: SFTPWrapper, p: string, d: string) =>
    new Promise<void>((res, rej) => s.writeFile(p, d, done(res, rej))),
  list: (s: SFTPWrapper, p: string) =>
    new Promise<ssh2.FileEntryWithStats[]>((res, rej) => s.readdir(p, done(res, rej))),
  stat: (s: SFTPWrapper, p: string) => new Promise<ssh2.Stats>((res, rej) => s.stat(p, done(res, rej))),
  mkdir: (s: SFTPWrapper, p: string) => new Promise<void>((res, rej) => s.mkdir(p, done(res, rej))),
  rmdir: (s: SFTPWrapper, p: string) => new Promise<void>((res, rej) => s.rmdir(p, done(res, rej))),
  unlink: (s: SFTPWrapper, p: string) => new Promise<void>((res, rej) => s.unlink(p, done(res, rej))),
  rename: (s: SFTPWrapper, a: string, b: string) =>
    new Promise<void>((res, rej) => s.rename(a, b, done(res, rej))),
  chmod: (s: SFTPWrapper, p: string, m: number) =>
    new Promise<void>((res, rej) => s.chmod(p, m, done(res, rej))),
  symlink: (s: SFTPWrapper, target: string, link: string) =>
    new Promise<void>((res, rej) => s.symlink(target, link, done(res, rej))),
  readlink: (s: SFTPWrapper, p: string) => new Promise<string>((res, rej) => s.readlink(p, done(res, rej))),
};
const names = async (s: SFTPWrapper, p: string) => (await op.list(s, p)).map((e) => e.filename).sort();
const at = (p: string) => path.join(dir, p);

beforeAll(async () => {
  stack = await startStack({ forceNoBwrap: true });
  uuid = await stack.createInstalled();
  dir = stack.daemon.manager.get(uuid)!.dir;
  port = await stack.daemon.listenSftp(0);
  await mkdir(at('plugins/sub'), { recursive: true });
  await mkdir(at('world'), { recursive: true });
  await writeFile(at('server.properties'), 'rcon.password=secret\n');
  await writeFile(at('world/level.dat'), 'level');
  await writeFile(at('plugins/a.jar'), 'jar');
  await writeFile(at('plugins/sub/inner.txt'), 'inner');
  // Links the owner (or the game server) made: one inside /plugins leading to the root, one staying inside.
  await symlink('..', at('plugins/up'));
  await symlink('sub', at('plugins/inner'));
  await symlink('plugins', at('root-link'));
  scoped = await login(['/plugins']);
  whole = await login();
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.end();
  await stack?.dispose();
});

describe('a subuser limited to /plugins', () => {
  it('sees only plugins at the root, everything inside it', async () => {
    expect(await names(scoped, '/')).toEqual(['plugins']);
    expect(await names(scoped, '/plugins')).toEqual(['a.jar', 'inner', 'sub', 'up']);
    expect(await codeOf(op.stat(scoped, '/'))).toBe('ok');
    expect(await codeOf(op.list(scoped, '/world'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(scoped, '/plugins/../world'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.stat(scoped, '/server.properties'))).toBe(PERMISSION_DENIED);
  });

  it('reads and writes inside; outside, also through .., is refused and nothing changes', async () => {
    expect((await op.read(scoped, '/plugins/a.jar')).toString()).toBe('jar');
    await op.write(scoped, '/plugins/new.yml', 'a: 1');
    expect(await readFile(at('plugins/new.yml'), 'utf8')).toBe('a: 1');
    expect(await codeOf(op.read(scoped, '/server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.read(scoped, '/plugins/../server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.read(scoped, 'plugins/../../server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(scoped, '/server.properties', 'x'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(scoped, '/plugins/../eula.txt', 'x'))).toBe(PERMISSION_DENIED);
    expect(await readFile(at('server.properties'), 'utf8')).toBe('rcon.password=secret\n');
    expect(existsSync(at('eula.txt'))).toBe(false);
  });

  it('removes, makes folders and changes modes inside only', async () => {
    expect(await codeOf(op.unlink(scoped, '/server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rmdir(scoped, '/world'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.mkdir(scoped, '/evil'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.chmod(scoped, '/server.properties', 0o777))).toBe(PERMISSION_DENIED);
    expect(existsSync(at('server.properties'))).toBe(true);
    expect(existsSync(at('world'))).toBe(true);
    expect(existsSync(at('evil'))).toBe(false);
    expect((await lstat(at('server.properties'))).mode & 0o777).toBe(0o644);
    await op.mkdir(scoped, '/plugins/conf');
    await op.chmod(scoped, '/plugins/a.jar', 0o600);
    expect((await lstat(at('plugins/a.jar'))).mode & 0o777).toBe(0o600);
    await op.write(scoped, '/plugins/old.txt', 'old');
    await op.unlink(scoped, '/plugins/old.txt');
    expect(existsSync(at('plugins/old.txt'))).toBe(false);
  });

  it('renames inside; a rename out of the folder, or into it from outside, is refused', async () => {
    expect(await codeOf(op.rename(scoped, '/plugins/a.jar', '/a.jar'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(scoped, '/plugins/a.jar', '/plugins/../a.jar'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(scoped, '/server.properties', '/plugins/s.properties'))).toBe(
      PERMISSION_DENIED,
    );
    // through the link to the root: the name is inside, the place is not
    expect(await codeOf(op.rename(scoped, '/plugins/a.jar', '/plugins/up/a.jar'))).toBe(PERMISSION_DENIED);
    expect(existsSync(at('plugins/a.jar'))).toBe(true);
    expect(existsSync(at('a.jar'))).toBe(false);
    expect(existsSync(at('plugins/s.properties'))).toBe(false);
    await op.rename(scoped, '/plugins/new.yml', '/plugins/conf/new.yml');
    expect(existsSync(at('plugins/conf/new.yml'))).toBe(true);
  });

  it('a link inside /plugins that leads to / gives no access; a link that stays inside works', async () => {
    expect(await codeOf(op.read(scoped, '/plugins/up/server.properties'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(scoped, '/plugins/up'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(scoped, '/plugins/up/world'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(scoped, '/plugins/up/planted.txt', 'x'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.mkdir(scoped, '/plugins/up/planted'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.unlink(scoped, '/plugins/up/server.properties'))).toBe(PERMISSION_DENIED);
    expect(existsSync(at('planted.txt'))).toBe(false);
    expect(existsSync(at('planted'))).toBe(false);
    expect(existsSync(at('server.properties'))).toBe(true);
    // the link itself is inside: it can be looked at (not followed)
    expect(await op.readlink(scoped, '/plugins/up')).toBe('..');
    expect((await op.read(scoped, '/plugins/inner/inner.txt')).toString()).toBe('inner');
    // a link outside the folder leading into it is outside by its name
    expect(await codeOf(op.list(scoped, '/root-link'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.readlink(scoped, '/root-link'))).toBe(PERMISSION_DENIED);
  });

  it('creates links inside pointing inside only', async () => {
    for (const [target, link] of [
      ['/', '/plugins/l1'],
      ['..', '/plugins/l2'],
      ['../server.properties', '/plugins/l3'],
      ['sub/../../world', '/plugins/l4'],
      ['plugins/a.jar', '/l5'],
    ] as const) {
      expect(await codeOf(op.symlink(scoped, target, link)), `${link} -> ${target}`).toBe(PERMISSION_DENIED);
    }
    for (const name of ['l1', 'l2', 'l3', 'l4']) expect(existsSync(at(`plugins/${name}`))).toBe(false);
    expect(existsSync(at('l5'))).toBe(false);
    await op.symlink(scoped, 'a.jar', '/plugins/l6');
    expect(await readlink(at('plugins/l6'))).toBe('a.jar');
  });
});

describe('a session without folders', () => {
  it('uses the whole server, links inside it included', async () => {
    expect(await names(whole, '/')).toEqual(
      expect.arrayContaining(['plugins', 'server.properties', 'world']),
    );
    expect((await op.read(whole, '/plugins/up/server.properties')).toString()).toBe('rcon.password=secret\n');
    expect((await op.read(whole, '/plugins/../world/level.dat')).toString()).toBe('level');
  });
});
