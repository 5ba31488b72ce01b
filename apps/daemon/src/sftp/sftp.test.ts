import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, startStack, type Stack } from '../test-support/harness.ts';

const { Client } = ssh2;

let stack: Stack;
let port: number;
let uuid: string;
let dir: string;
let outside: string;
/** ssh2 now and then drops a leading zero byte of the key (31 bytes, refused by every SSH stack): draw again. */
function ed25519Pair() {
  let pair = ssh2.utils.generateKeyPairSync('ed25519');
  while (Buffer.from(pair.public.split(' ')[1] ?? '', 'base64').length !== 51) {
    pair = ssh2.utils.generateKeyPairSync('ed25519');
  }
  return pair;
}
const key = ed25519Pair();
const clients: InstanceType<typeof Client>[] = [];

/** The uid/gid the daemon gives created files: the runtime user when it runs as root. */
const expectedOwner = () =>
  process.getuid?.() === 0
    ? { uid: stack.config.runtime.uid, gid: stack.config.runtime.gid }
    : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

function connect(
  username: string,
  auth: { password?: string; privateKey?: string },
): Promise<{ client: InstanceType<typeof Client>; sftp: SFTPWrapper }> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    clients.push(client);
    client.once('error', reject);
    client.once('ready', () => {
      client.sftp((err, sftp) => (err ? reject(err) : resolve({ client, sftp })));
    });
    client.connect({ host: '127.0.0.1', port, username, ...auth, tryKeyboard: false, readyTimeout: 10_000 });
  });
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

const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;
const FAILURE = 4;

const op = {
  read: (s: SFTPWrapper, p: string) =>
    new Promise<Buffer>((res, rej) => s.readFile(p, (e, d) => (e ? rej(e) : res(d)))),
  write: (s: SFTPWrapper, p: string, data: string | Buffer) =>
    new Promise<void>((res, rej) => s.writeFile(p, data, (e) => (e ? rej(e) : res()))),
  list: (s: SFTPWrapper, p: string) =>
    new Promise<ssh2.FileEntryWithStats[]>((res, rej) => s.readdir(p, (e, l) => (e ? rej(e) : res(l)))),
  mkdir: (s: SFTPWrapper, p: string) =>
    new Promise<void>((res, rej) => s.mkdir(p, (e) => (e ? rej(e) : res()))),
  rmdir: (s: SFTPWrapper, p: string) =>
    new Promise<void>((res, rej) => s.rmdir(p, (e) => (e ? rej(e) : res()))),
  unlink: (s: SFTPWrapper, p: string) =>
    new Promise<void>((res, rej) => s.unlink(p, (e) => (e ? rej(e) : res()))),
  rename: (s: SFTPWrapper, a: string, b: string) =>
    new Promise<void>((res, rej) => s.rename(a, b, (e) => (e ? rej(e) : res()))),
  chmod: (s: SFTPWrapper, p: string, mode: number) =>
    new Promise<void>((res, rej) => s.chmod(p, mode, (e) => (e ? rej(e) : res()))),
  stat: (s: SFTPWrapper, p: string) =>
    new Promise<ssh2.Stats>((res, rej) => s.stat(p, (e, st) => (e ? rej(e) : res(st)))),
  symlink: (s: SFTPWrapper, target: string, link: string) =>
    new Promise<void>((res, rej) => s.symlink(target, link, (e) => (e ? rej(e) : res()))),
  realpath: (s: SFTPWrapper, p: string) =>
    new Promise<string>((res, rej) => s.realpath(p, (e, r) => (e ? rej(e) : res(r)))),
};

function account(over: Partial<(typeof stack.remote.sftpAccounts)[number]> = {}) {
  const a = {
    username: `user${stack.remote.sftpAccounts.length}`,
    password: 'sftp secret',
    publicKeys: [] as string[],
    server: uuid,
    user: randomUUID(),
    permissions: ['*'],
    ...over,
  };
  stack.remote.sftpAccounts.push(a);
  return { ...a, login: `${a.username}.${a.server.slice(0, 8)}` };
}

beforeAll(async () => {
  stack = await startStack({ forceNoBwrap: true });
  uuid = await stack.createInstalled();
  dir = stack.daemon.manager.get(uuid)!.dir;
  port = await stack.daemon.listenSftp(0);
  outside = await mkdtemp('/var/tmp/talon-sftp-outside-');
  await writeFile(path.join(outside, 'secret'), 'OUTSIDE SECRET');
  await chmod(path.join(outside, 'secret'), 0o600);
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.end();
  await stack?.dispose();
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe('SFTP login (authenticated by the panel)', () => {
  it('accepts a password, refuses a wrong one and unknown servers', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    expect(await op.realpath(sftp, '.')).toBe('/');
    await expect(connect(a.login, { password: 'wrong' })).rejects.toThrow(/authentication methods failed/i);
    await expect(connect(`${a.username}.abcdef12`, { password: a.password })).rejects.toThrow(
      /authentication methods failed/i,
    );
    // a name without an 8-character server id never reaches the panel
    const before = stack.remote.sftpAttempts.length;
    await expect(connect('no-server-part', { password: a.password })).rejects.toThrow(
      /authentication methods failed/i,
    );
    expect(stack.remote.sftpAttempts.length).toBe(before);
  });

  it('accepts a public key the panel knows and refuses another', async () => {
    const a = account({ publicKeys: [key.public] });
    await writeFile(path.join(dir, 'key-marker.txt'), 'k');
    const { sftp } = await connect(a.login, { privateKey: key.private });
    expect((await op.list(sftp, '/')).map((e) => e.filename)).toContain('key-marker.txt');
    const other = ed25519Pair();
    await expect(connect(a.login, { privateKey: other.private })).rejects.toThrow(
      /authentication methods failed/i,
    );
  });

  it('closes a connection after 6 refused attempts', async () => {
    const a = account();
    const before = stack.remote.sftpAttempts.length;
    let offered = 0;
    const err = await new Promise<Error>((resolve) => {
      const client = new Client();
      clients.push(client);
      client.once('error', resolve);
      client.once('close', () => resolve(new Error('closed')));
      client.once('ready', () => resolve(new Error('logged in')));
      client.connect({
        host: '127.0.0.1',
        port,
        username: a.login,
        readyTimeout: 10_000,
        authHandler: (_methods, _partial, next) => {
          offered++;
          next({ type: 'password', username: a.login, password: `wrong ${offered}` });
        },
      });
    });
    expect(err.message).not.toBe('logged in');
    expect(stack.remote.sftpAttempts.length - before).toBe(6);
  });

  it('refuses a grant for a server this node does not have', async () => {
    const a = account({ server: randomUUID() });
    await expect(connect(a.login, { password: a.password })).rejects.toThrow(
      /authentication methods failed/i,
    );
  });
});

describe('SFTP file operations', () => {
  it('uploads, downloads, lists, makes directories, renames, chmods and removes', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    await op.write(sftp, '/up/nested/hello.txt', 'hello over sftp');
    const onDisk = path.join(dir, 'up/nested/hello.txt');
    expect(await readFile(onDisk, 'utf8')).toBe('hello over sftp');
    const st = await stat(onDisk);
    expect({ uid: st.uid, gid: st.gid }).toEqual(expectedOwner());
    expect(st.mode & 0o777).toBe(0o644);
    expect((await op.read(sftp, 'up/nested/hello.txt')).toString()).toBe('hello over sftp');

    const listing = await op.list(sftp, '/up/nested');
    expect(listing.map((e) => e.filename)).toEqual(['hello.txt']);
    expect(listing[0]!.longname).toMatch(
      /^-rw-r--r-- +1 container container +15 \w{3} [ \d]\d [\d :]{5} hello\.txt$/,
    );
    expect(listing[0]!.attrs.size).toBe(15);

    await op.mkdir(sftp, '/made');
    expect((await lstat(path.join(dir, 'made'))).isDirectory()).toBe(true);
    await op.rename(sftp, '/up/nested/hello.txt', '/made/renamed.txt');
    expect(existsSync(onDisk)).toBe(false);
    expect(await readFile(path.join(dir, 'made/renamed.txt'), 'utf8')).toBe('hello over sftp');
    await op.write(sftp, '/made/other.txt', 'x');
    expect(await codeOf(op.rename(sftp, '/made/renamed.txt', '/made/other.txt'))).toBe(FAILURE);

    await op.chmod(sftp, '/made/renamed.txt', 0o600);
    expect((await stat(path.join(dir, 'made/renamed.txt'))).mode & 0o777).toBe(0o600);
    expect((await op.stat(sftp, '/made/renamed.txt')).mode & 0o777).toBe(0o600);

    await op.unlink(sftp, '/made/renamed.txt');
    expect(existsSync(path.join(dir, 'made/renamed.txt'))).toBe(false);
    expect(await codeOf(op.unlink(sftp, '/made/renamed.txt'))).toBe(NO_SUCH_FILE);
    await op.rmdir(sftp, '/made');
    expect(existsSync(path.join(dir, 'made'))).toBe(false);
  });

  it('a read-only grant can read and list but every change is refused', async () => {
    await writeFile(path.join(dir, 'ro.txt'), 'read me');
    await mkdir(path.join(dir, 'rodir'), { recursive: true });
    const a = account({ permissions: ['file.read', 'file.read-content', 'file.sftp'] });
    const { sftp } = await connect(a.login, { password: a.password });
    expect((await op.read(sftp, '/ro.txt')).toString()).toBe('read me');
    expect((await op.list(sftp, '/')).map((e) => e.filename)).toContain('ro.txt');
    expect(await codeOf(op.write(sftp, '/ro.txt', 'changed'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/new.txt', 'new'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.mkdir(sftp, '/newdir'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(sftp, '/ro.txt', '/moved.txt'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.chmod(sftp, '/ro.txt', 0o777))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.unlink(sftp, '/ro.txt'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rmdir(sftp, '/rodir'))).toBe(PERMISSION_DENIED);
    expect(await readFile(path.join(dir, 'ro.txt'), 'utf8')).toBe('read me');
    expect(existsSync(path.join(dir, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'newdir'))).toBe(false);
    expect(existsSync(path.join(dir, 'rodir'))).toBe(true);
    expect((await stat(path.join(dir, 'ro.txt'))).mode & 0o777).not.toBe(0o777);

    // listing without file.read-content still cannot read contents
    const b = account({ permissions: ['file.read'] });
    const { sftp: listOnly } = await connect(b.login, { password: b.password });
    expect((await op.list(listOnly, '/')).map((e) => e.filename)).toContain('ro.txt');
    expect(await codeOf(op.read(listOnly, '/ro.txt'))).toBe(PERMISSION_DENIED);
  });
});

describe('SFTP paths stay inside the server (advisories §9)', () => {
  it('../ traversal reaches nothing outside', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    const leaked = await op.read(sftp, '../../../../etc/passwd').then(
      (b) => b.toString(),
      () => '',
    );
    expect(leaked).not.toContain('root:');
    const rel = path.relative(dir, outside);
    expect(await codeOf(op.write(sftp, `${rel}/planted`, 'x'))).not.toBe('ok');
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(await codeOf(op.list(sftp, '../../../../etc'))).not.toBe('ok');
  });

  it('symlinks to the outside are refused for read, write, list, rename and chmod', async () => {
    await symlink(outside, path.join(dir, 'outdir'));
    await symlink(path.join(outside, 'secret'), path.join(dir, 'outfile'));
    await symlink('../../../../../../../..' + outside, path.join(dir, 'relout'));
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });

    expect(await codeOf(op.read(sftp, '/outfile'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.read(sftp, '/outdir/secret'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.read(sftp, '/relout/secret'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(sftp, '/outdir'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/outfile', 'overwritten'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/outdir/planted', 'x'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(sftp, '/outdir/secret', '/stolen'))).toBe(PERMISSION_DENIED);
    await op.write(sftp, '/mine.txt', 'mine');
    expect(await codeOf(op.rename(sftp, '/mine.txt', '/outdir/planted'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.chmod(sftp, '/outfile', 0o777))).not.toBe('ok');
    expect(await codeOf(op.chmod(sftp, '/outdir/secret', 0o777))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.mkdir(sftp, '/outdir/newdir'))).toBe(PERMISSION_DENIED);

    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    expect((await stat(path.join(outside, 'secret'))).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(existsSync(path.join(outside, 'newdir'))).toBe(false);
    expect(existsSync(path.join(dir, 'stolen'))).toBe(false);
    // removing the link removes the link only
    await op.unlink(sftp, '/outfile');
    expect(existsSync(path.join(dir, 'outfile'))).toBe(false);
    expect(existsSync(path.join(outside, 'secret'))).toBe(true);
  });

  it('a dangling symlink to the outside is never created through (CVE-2023-25152)', async () => {
    await symlink(path.join(outside, 'newdir'), path.join(dir, 'dangling'));
    await symlink(outside, path.join(dir, 'dangling2'));
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    expect(await codeOf(op.mkdir(sftp, '/dangling'))).not.toBe('ok');
    expect(await codeOf(op.mkdir(sftp, '/dangling/x'))).not.toBe('ok');
    expect(await codeOf(op.write(sftp, '/dangling/x', 'x'))).not.toBe('ok');
    expect(await codeOf(op.write(sftp, '/dangling', 'x'))).not.toBe('ok');
    expect(await codeOf(op.write(sftp, '/dangling2/.ssh/authorized_keys', 'ssh-ed25519 AAAA'))).not.toBe(
      'ok',
    );
    expect(existsSync(path.join(outside, 'newdir'))).toBe(false);
    expect(existsSync(path.join(outside, '.ssh'))).toBe(false);
  });

  it('a symlink made over SFTP holds its text but gives no way out', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    await op.symlink(sftp, outside, '/made-link');
    expect((await lstat(path.join(dir, 'made-link'))).isSymbolicLink()).toBe(true);
    expect(await codeOf(op.read(sftp, '/made-link/secret'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(sftp, '/made-link'))).toBe(PERMISSION_DENIED);
  });
});

describe('SFTP limits', () => {
  it('keeps at most 256 handles open per session', async () => {
    await writeFile(path.join(dir, 'handle.txt'), 'h');
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    const open = () =>
      new Promise<Buffer>((res, rej) => sftp.open('/handle.txt', 'r', (e, h) => (e ? rej(e) : res(h))));
    const handles: Buffer[] = [];
    for (let i = 0; i < 256; i++) handles.push(await open());
    expect(await codeOf(open())).toBe(FAILURE);
    await new Promise<void>((res, rej) => sftp.close(handles.pop()!, (e) => (e ? rej(e) : res())));
    expect(await codeOf(open())).toBe('ok');
  });

  it('refuses writes beyond the server disk limit', async () => {
    const small = randomUUID();
    const fixture = fixtureServer(small);
    await stack.createInstalled(small, {
      settings: { build: { ...(fixture.settings.build as object), disk_space: 1 } },
    });
    const a = account({ server: small });
    const { sftp } = await connect(a.login, { password: a.password });
    const smallDir = stack.daemon.manager.get(small)!.dir;
    await op.write(sftp, '/fits.bin', Buffer.alloc(100 * 1024));
    expect((await stat(path.join(smallDir, 'fits.bin'))).size).toBe(100 * 1024);
    const code = await codeOf(op.write(sftp, '/too-big.bin', Buffer.alloc(2 * 1024 * 1024)));
    expect(code).toBe(FAILURE);
    const size = existsSync(path.join(smallDir, 'too-big.bin'))
      ? (await stat(path.join(smallDir, 'too-big.bin'))).size
      : 0;
    expect(size).toBeLessThan(1024 * 1024);
  });
});

describe('SFTP follows the same file rules as the HTTP routes (shared operations)', () => {
  let denyDir: string;
  let login: { login: string; password: string };

  beforeAll(async () => {
    const id = randomUUID();
    await stack.createInstalled(id, {
      settings: { egg: { id: randomUUID(), file_denylist: ['*.jar', '/config/'] } },
    });
    denyDir = stack.daemon.manager.get(id)!.dir;
    login = account({ server: id });
  });

  it('the egg file denylist refuses writes, renames onto and away from denied names', async () => {
    await mkdir(path.join(denyDir, 'config'), { recursive: true });
    await writeFile(path.join(denyDir, 'server.jar'), 'original jar');
    await writeFile(path.join(denyDir, 'config', 'app.yml'), 'original config');
    await writeFile(path.join(denyDir, 'plain.txt'), 'plain');
    const { sftp } = await connect(login.login, { password: login.password });

    expect(await codeOf(op.write(sftp, '/server.jar', 'replaced'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/plugins/new.jar', 'x'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/config/app.yml', 'replaced'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(sftp, '/plain.txt', '/sneaky.jar'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.rename(sftp, '/server.jar', '/server.txt'))).toBe(PERMISSION_DENIED);

    expect(await readFile(path.join(denyDir, 'server.jar'), 'utf8')).toBe('original jar');
    expect(await readFile(path.join(denyDir, 'config', 'app.yml'), 'utf8')).toBe('original config');
    expect(existsSync(path.join(denyDir, 'plugins', 'new.jar'))).toBe(false);
    expect(existsSync(path.join(denyDir, 'sneaky.jar'))).toBe(false);
    // Reading a denied file and writing an allowed one still work.
    expect((await op.read(sftp, '/server.jar')).toString()).toBe('original jar');
    await op.write(sftp, '/plain.txt', 'changed');
    expect(await readFile(path.join(denyDir, 'plain.txt'), 'utf8')).toBe('changed');
  });

  it('chmod refuses setuid and setgid bits (files stay as they were); plain modes pass', async () => {
    await writeFile(path.join(denyDir, 'tool.sh'), '#!/bin/sh\n');
    await chmod(path.join(denyDir, 'tool.sh'), 0o755);
    const { sftp } = await connect(login.login, { password: login.password });
    for (const mode of [0o4755, 0o2755, 0o6755]) {
      expect(await codeOf(op.chmod(sftp, '/tool.sh', mode))).toBe(PERMISSION_DENIED);
    }
    expect((await stat(path.join(denyDir, 'tool.sh'))).mode & 0o7777).toBe(0o755);
    await op.chmod(sftp, '/tool.sh', 0o700);
    expect((await stat(path.join(denyDir, 'tool.sh'))).mode & 0o7777).toBe(0o700);
  });

  it('a missing source is "no such file" for rename, chmod and remove', async () => {
    const { sftp } = await connect(login.login, { password: login.password });
    expect(await codeOf(op.rename(sftp, '/missing.txt', '/other.txt'))).toBe(NO_SUCH_FILE);
    expect(await codeOf(op.rename(sftp, '/no/dir/missing.txt', '/other.txt'))).toBe(NO_SUCH_FILE);
    expect(await codeOf(op.chmod(sftp, '/missing.txt', 0o644))).toBe(NO_SUCH_FILE);
    expect(await codeOf(op.unlink(sftp, '/missing.txt'))).toBe(NO_SUCH_FILE);
    expect(await codeOf(op.rmdir(sftp, '/missing'))).toBe(NO_SUCH_FILE);
  });
});

describe('SFTP and suspension, activity', () => {
  it('system.sftp.read_only answers "operation unsupported" to every change', async () => {
    const OP_UNSUPPORTED = 8;
    stack.config.system.sftp.read_only = true;
    try {
      const a = account();
      const { sftp } = await connect(a.login, { password: a.password });
      await writeFile(path.join(dir, 'ro-config.txt'), 'kept');
      expect((await op.read(sftp, '/ro-config.txt')).toString()).toBe('kept');
      expect(await codeOf(op.write(sftp, '/ro-config.txt', 'changed'))).toBe(OP_UNSUPPORTED);
      expect(await codeOf(op.mkdir(sftp, '/ro-config-dir'))).toBe(OP_UNSUPPORTED);
      expect(await codeOf(op.unlink(sftp, '/ro-config.txt'))).toBe(OP_UNSUPPORTED);
      expect(await readFile(path.join(dir, 'ro-config.txt'), 'utf8')).toBe('kept');
      expect(existsSync(path.join(dir, 'ro-config-dir'))).toBe(false);
    } finally {
      stack.config.system.sftp.read_only = false;
    }
  });

  it('a suspended server refuses new logins and every operation of an open session', async () => {
    const sid = await stack.createInstalled();
    const sdir = stack.daemon.manager.get(sid)!.dir;
    await writeFile(path.join(sdir, 'x.txt'), 'x');
    const a = account({ server: sid });
    const { sftp } = await connect(a.login, { password: a.password });
    expect((await op.read(sftp, '/x.txt')).toString()).toBe('x');

    const fixture = stack.remote.servers.get(sid)!;
    fixture.settings = { ...fixture.settings, suspended: true };
    expect((await stack.api('POST', `/api/servers/${sid}/sync`)).status).toBe(204);
    expect(stack.daemon.manager.get(sid)!.suspended).toBe(true);

    expect(await codeOf(op.read(sftp, '/x.txt'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.list(sftp, '/'))).toBe(PERMISSION_DENIED);
    expect(await codeOf(op.write(sftp, '/y.txt', 'y'))).toBe(PERMISSION_DENIED);
    expect(existsSync(path.join(sdir, 'y.txt'))).toBe(false);
    await expect(connect(a.login, { password: a.password })).rejects.toThrow(
      /authentication methods failed/i,
    );
  });

  it('a token denial for the server (access changed) ends its SFTP sessions; the next login asks again', async () => {
    const a = account();
    const { client, sftp } = await connect(a.login, { password: a.password });
    expect((await op.list(sftp, '/')).length).toBeGreaterThan(0);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    const res = await stack.api('POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['some-jti'] });
    expect(res.status).toBe(204);
    await closed;
    // the panel now refuses this user: a new login is checked and fails
    stack.remote.sftpAccounts.splice(
      stack.remote.sftpAccounts.findIndex((x) => x.user === a.user),
      1,
    );
    const before = stack.remote.sftpAttempts.length;
    await expect(connect(a.login, { password: a.password })).rejects.toThrow(
      /authentication methods failed/i,
    );
    expect(stack.remote.sftpAttempts.length).toBe(before + 1);
  });

  it('a denial for another server leaves sessions alone', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    const res = await stack.api('POST', `/api/servers/${await stack.createInstalled()}/ws/deny`, {
      jtis: ['x'],
    });
    expect(res.status).toBe(204);
    expect((await op.list(sftp, '/')).length).toBeGreaterThan(0);
  });

  it('sends sftp activity to the panel with the files touched', async () => {
    const a = account();
    const { sftp } = await connect(a.login, { password: a.password });
    await op.write(sftp, '/activity-a.txt', 'a');
    await op.mkdir(sftp, '/activity-dir');
    await op.rename(sftp, '/activity-a.txt', '/activity-dir/a.txt');
    await op.unlink(sftp, '/activity-dir/a.txt');
    await stack.daemon.activity.flush();
    const mine = stack.remote.activity.filter((e) => e.user === a.user);
    expect(mine.map((e) => e.event).sort()).toEqual([
      'server:sftp.create',
      'server:sftp.create-directory',
      'server:sftp.delete',
      'server:sftp.rename',
    ]);
    expect(mine.find((e) => e.event === 'server:sftp.rename')?.metadata).toEqual({
      files: [{ from: '/activity-a.txt', to: '/activity-dir/a.txt' }],
    });
    expect(mine.every((e) => e.server === uuid)).toBe(true);
  });
});
