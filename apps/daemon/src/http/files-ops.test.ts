import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyNames, splitExtension } from '../fs/copy.ts';
import { TOKEN, fixtureServer, startStack, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { tarEntries } from '../test-support/archives.ts';

const NOT_FOUND = { error: 'The requested resources was not found on the system.' };
const IS_DIR = { error: 'Cannot perform that action: file is a directory.' };
const DENIED = { error: 'This file cannot be modified: present in egg denylist.' };
const NO_SPACE = { error: 'There is not enough disk space available to perform that action.' };
const KIB = 1024;
const MIB = 1024 * 1024;

type TarEntry = {
  name: string;
  body?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink';
  linkname?: string;
  mode?: number;
};

async function tarOf(entries: TarEntry[], gzip = true): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const e of entries) {
    const body = e.body === undefined ? undefined : Buffer.from(e.body);
    pack.entry(
      { name: e.name, type: e.type ?? 'file', linkname: e.linkname, mode: e.mode, size: body?.length ?? 0 },
      body ?? '',
    );
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack as unknown as AsyncIterable<Buffer>) chunks.push(c);
  const raw = Buffer.concat(chunks);
  return gzip ? zlib.gzipSync(raw) : raw;
}

/** A stored (uncompressed) zip; names are written as given, `../` included. */
function zipOf(entries: { name: string; body: string }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from(e.body);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('file operation routes and signed URLs', () => {
  let stack: Stack;
  let uuid: string;
  let dir: string;
  let outside: string;

  const build = (id: string, disk: number): Record<string, unknown> => ({
    ...(fixtureServer(id).settings.build as Record<string, unknown>),
    disk_space: disk,
  });

  beforeAll(async () => {
    stack = await startStack({ config: { api: { host: '127.0.0.1', port: 0, upload_limit: 1 } } });
    const id = randomUUID();
    uuid = await stack.createInstalled(id, {
      settings: { egg: { id: randomUUID(), file_denylist: ['*.jar', '/config/'] }, build: build(id, 0) },
    });
    dir = path.join(stack.config.system.data, uuid);
    outside = await mkdtemp(path.join(os.tmpdir(), 'talon-ops-outside-'));
    await writeFile(path.join(outside, 'secret'), 'OUTSIDE SECRET');
    await chmod(path.join(outside, 'secret'), 0o600);
    await symlink(outside, path.join(dir, 'link-out'));
    await symlink(path.join(outside, 'secret'), path.join(dir, 'secret-link'));
  });
  afterAll(async () => {
    await stack?.dispose();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  const call = (method: string, route: string, body: unknown, server = uuid) =>
    stack.api(method, `/api/servers/${server}/files/${route}`, body);
  const file = (p: string): string => path.join(dir, p);
  const outsideNames = async (): Promise<string[]> => (await readdir(outside)).sort();
  const secretIntact = async (): Promise<void> => {
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    expect((await stat(path.join(outside, 'secret'))).mode & 0o777).toBe(0o600);
    expect(await outsideNames()).toEqual(['secret']);
  };

  describe('PUT files/rename', () => {
    it('moves files, creating missing destination parents; a missing source is skipped', async () => {
      await writeFile(file('ren-a.txt'), 'A');
      const res = await call('PUT', 'rename', {
        root: '/',
        files: [
          { from: 'ren-a.txt', to: 'ren/deep/b.txt' },
          { from: 'missing.txt', to: 'never.txt' },
        ],
      });
      expect(res.status).toBe(204);
      expect(existsSync(file('ren-a.txt'))).toBe(false);
      expect(await readFile(file('ren/deep/b.txt'), 'utf8')).toBe('A');
      expect(existsSync(file('never.txt'))).toBe(false);
    });

    it('joins both paths to root and moves a symlink as itself', async () => {
      await mkdir(file('rroot'), { recursive: true });
      await symlink('../ren', file('rroot/l'));
      const res = await call('PUT', 'rename', { root: '/rroot', files: [{ from: 'l', to: 'l2' }] });
      expect(res.status).toBe(204);
      expect(await readlink(file('rroot/l2'))).toBe('../ren');
    });

    it('refuses an empty list (422), an existing destination (400) and denylisted names (403)', async () => {
      expect(await call('PUT', 'rename', { root: '/', files: [] })).toMatchObject({
        status: 422,
        body: { error: 'No files to move or rename were provided.' },
      });
      await writeFile(file('ren-x.txt'), 'X');
      await writeFile(file('ren-y.txt'), 'Y');
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: 'ren-x.txt', to: 'ren-y.txt' }] }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Cannot move or rename file, destination already exists.' },
      });
      expect(await readFile(file('ren-x.txt'), 'utf8')).toBe('X');
      expect(await readFile(file('ren-y.txt'), 'utf8')).toBe('Y');
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: 'ren-x.txt', to: 'x.jar' }] }),
      ).toMatchObject({
        status: 403,
        body: DENIED,
      });
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: 'a/../config/x', to: 'ok' }] }),
      ).toMatchObject({
        status: 403,
      });
      expect(existsSync(file('x.jar'))).toBe(false);
      expect((await call('PUT', 'rename', { root: '/', files: 'nope' })).status).toBe(400);
    });

    it('never renames the root, or anything through a link out of the root', async () => {
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: '/', to: 'rootmoved' }] }),
      ).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: 'link-out/secret', to: 'stolen' }] }),
      ).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(
        await call('PUT', 'rename', { root: '/', files: [{ from: 'ren-x.txt', to: 'link-out/planted' }] }),
      ).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(existsSync(file('stolen'))).toBe(false);
      expect(existsSync(file('ren-x.txt'))).toBe(true);
      await secretIntact();
    });
  });

  describe('POST files/copy', () => {
    it('names copies " copy", " copy 1"…; keeps the mode; .tar.gz is one extension', async () => {
      await writeFile(file('cp.txt'), 'copy me');
      await chmod(file('cp.txt'), 0o600);
      expect((await call('POST', 'copy', { location: '/cp.txt' })).status).toBe(204);
      expect((await call('POST', 'copy', { location: 'cp.txt' })).status).toBe(204);
      expect(await readFile(file('cp copy.txt'), 'utf8')).toBe('copy me');
      expect(await readFile(file('cp copy 1.txt'), 'utf8')).toBe('copy me');
      expect((await stat(file('cp copy 1.txt'))).mode & 0o777).toBe(0o600);
      await writeFile(file('b.tar.gz'), 'gz');
      expect((await call('POST', 'copy', { location: 'b.tar.gz' })).status).toBe(204);
      expect(existsSync(file('b copy.tar.gz'))).toBe(true);
    });

    it('name helpers: 50 numbered names then an RFC 3339 one', () => {
      expect(splitExtension('a.tar.xz')).toEqual(['a', '.tar.xz']);
      expect(splitExtension('.bashrc')).toEqual(['.bashrc', '']);
      const names = copyNames('x.txt', new Date('2024-03-17T20:58:30Z'));
      expect(names).toHaveLength(52);
      expect(names[50]).toBe('x copy 50.txt');
      expect(names[51]).toBe('x copy.2024-03-17T20:58:30Z.txt');
    });

    it('refuses directories, denylisted sources, links and missing files', async () => {
      await mkdir(file('cpdir'), { recursive: true });
      expect(await call('POST', 'copy', { location: 'cpdir' })).toMatchObject({ status: 400, body: IS_DIR });
      await writeFile(file('srv.jar'), 'jar');
      expect(await call('POST', 'copy', { location: 'srv.jar' })).toMatchObject({
        status: 403,
        body: DENIED,
      });
      expect(existsSync(file('srv copy.jar'))).toBe(false);
      expect(await call('POST', 'copy', { location: 'secret-link' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'copy', { location: 'link-out/secret' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'copy', { location: '../../etc/passwd' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'copy', { location: 'nothing' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(existsSync(file('secret-link copy'))).toBe(false);
      await secretIntact();
    });

    it('a copy may not take a name the denylist denies (an allowed file copied to a denied name)', async () => {
      const id = randomUUID();
      const srv = await stack.createInstalled(id, {
        settings: { egg: { id: randomUUID(), file_denylist: ['*.jar', '!server.jar'] }, build: build(id, 0) },
      });
      const sdir = path.join(stack.config.system.data, srv);
      await writeFile(path.join(sdir, 'server.jar'), 'allowed jar');
      expect(await call('POST', 'copy', { location: 'server.jar' }, srv)).toMatchObject({
        status: 403,
        body: DENIED,
      });
      expect((await readdir(sdir)).filter((n) => n.endsWith('.jar'))).toEqual(['server.jar']);
    });
  });

  describe('POST files/create-directory', () => {
    it('creates the directory and its parents (0755)', async () => {
      expect((await call('POST', 'create-directory', { name: 'c', path: '/mk/a/b' })).status).toBe(204);
      const st = await lstat(file('mk/a/b/c'));
      expect(st.isDirectory()).toBe(true);
      expect(st.mode & 0o777).toBe(0o755);
    });

    it('refuses a file in the way and links out (nothing created outside, dangling links included)', async () => {
      await writeFile(file('mkfile'), 'f');
      expect(await call('POST', 'create-directory', { name: 'x', path: 'mkfile' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'create-directory', { name: 'planted', path: 'link-out' })).toMatchObject({
        status: 404,
      });
      await symlink(path.join(outside, 'newdir'), file('dangling'));
      expect((await call('POST', 'create-directory', { name: 'x', path: 'dangling' })).status).toBe(404);
      await rm(file('dangling'));
      await secretIntact();
    });
  });

  describe('POST files/delete', () => {
    it('deletes files and directories recursively; missing entries are ignored', async () => {
      await mkdir(file('del/sub'), { recursive: true });
      await writeFile(file('del/sub/f'), 'f');
      await writeFile(file('del-one'), '1');
      const res = await call('POST', 'delete', { root: '/', files: ['del', 'del-one', 'not-there'] });
      expect(res.status).toBe(204);
      expect(existsSync(file('del'))).toBe(false);
      expect(existsSync(file('del-one'))).toBe(false);
    });

    it('removes links, never what they point to; refuses paths through a link out', async () => {
      await mkdir(file('keep'), { recursive: true });
      await writeFile(file('keep/k'), 'k');
      await symlink('keep', file('keep-link'));
      await symlink(outside, file('del-out'));
      await mkdir(file('holder'), { recursive: true });
      await symlink(outside, file('holder/out'));
      expect(
        (await call('POST', 'delete', { root: '/', files: ['keep-link', 'del-out', 'holder'] })).status,
      ).toBe(204);
      expect(existsSync(file('keep-link'))).toBe(false);
      expect(await readFile(file('keep/k'), 'utf8')).toBe('k');
      expect(existsSync(file('holder'))).toBe(false);
      expect(await call('POST', 'delete', { root: '/', files: ['link-out/secret'] })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      await secretIntact();
    });

    it('refuses an empty list (422) and the root itself (nothing deleted)', async () => {
      expect(await call('POST', 'delete', { root: '/', files: [] })).toMatchObject({
        status: 422,
        body: { error: 'No files were specified for deletion.' },
      });
      await writeFile(file('survivor'), 's');
      expect(await call('POST', 'delete', { root: '/', files: ['survivor', '/'] })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'delete', { root: '/sub/..', files: ['.'] })).toMatchObject({ status: 404 });
      expect(existsSync(file('survivor'))).toBe(true);
    });
  });

  describe('POST files/compress', () => {
    it('answers the file object of a tar.gz holding the listed files, relative to root, without links', async () => {
      await mkdir(file('pk/sub'), { recursive: true });
      await writeFile(file('pk/a.txt'), 'aaa');
      await writeFile(file('pk/sub/b.txt'), 'bbb');
      await writeFile(file('pk/skip.txt'), 'not listed');
      await symlink(outside, file('pk/sub/out'));
      await symlink(path.join(outside, 'secret'), file('pk/sec'));
      const res = await call('POST', 'compress', { root: '/pk', files: ['a.txt', 'sub', 'sec', 'missing'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        directory: false,
        file: true,
        mime: 'application/tar+gzip',
        mode_bits: '644',
      });
      expect(res.body.name).toMatch(/^archive-\d{4}-\d\d-\d\dT\d{6}Z\.tar\.gz$/);
      const archive = await readFile(file(`pk/${res.body.name}`));
      expect(res.body.size).toBe(archive.length);
      const entries = await tarEntries(archive);
      expect([...entries.keys()].sort()).toEqual(['a.txt', 'sub/b.txt']);
      expect(entries.get('sub/b.txt')).toBe('bbb');
    });

    it('never follows a listed link out of the root', async () => {
      const res = await call('POST', 'compress', { root: '/', files: ['link-out', 'secret-link'] });
      expect(res.status).toBe(200);
      expect((await tarEntries(await readFile(file(res.body.name)))).size).toBe(0);
      expect(await call('POST', 'compress', { root: '/link-out', files: ['secret'] })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      await secretIntact();
    });

    it('refuses an empty list (422)', async () => {
      expect(await call('POST', 'compress', { root: '/', files: [] })).toMatchObject({
        status: 422,
        body: { error: 'No files were passed through to be compressed.' },
      });
    });
  });

  describe('POST files/decompress', () => {
    it('extracts tar.gz, tar and zip archives with their modes; denylisted entries are skipped', async () => {
      await mkdir(file('dx'), { recursive: true });
      await writeFile(
        file('dx/a.tar.gz'),
        await tarOf([
          { name: 'top/', type: 'directory' },
          { name: 'top/run.sh', body: '#!/bin/sh', mode: 0o750 },
          { name: 'top/plugin.jar', body: 'jar' },
          { name: './top/n/deep.txt', body: 'deep' },
        ]),
      );
      expect((await call('POST', 'decompress', { root: '/dx', file: 'a.tar.gz' })).status).toBe(204);
      expect(await readFile(file('dx/top/run.sh'), 'utf8')).toBe('#!/bin/sh');
      expect((await stat(file('dx/top/run.sh'))).mode & 0o777).toBe(0o750);
      expect(await readFile(file('dx/top/n/deep.txt'), 'utf8')).toBe('deep');
      expect(existsSync(file('dx/top/plugin.jar'))).toBe(false);

      await writeFile(file('dx/b.tar'), await tarOf([{ name: 'plain.txt', body: 'plain' }], false));
      expect((await call('POST', 'decompress', { root: '/dx', file: 'b.tar' })).status).toBe(204);
      expect(await readFile(file('dx/plain.txt'), 'utf8')).toBe('plain');

      await writeFile(file('dx/c.zip'), zipOf([{ name: 'z/one.txt', body: 'one' }]));
      expect(await call('POST', 'decompress', { root: '/dx', file: 'c.zip' })).toMatchObject({ status: 204 });
      expect(await readFile(file('dx/z/one.txt'), 'utf8')).toBe('one');
    });

    // Issue 23 item 9: the same rule as chmod and a backup restore (fs/jail.ts entryMode).
    it('extracted entries lose setuid and setgid, keeping their other bits', async () => {
      await mkdir(file('sx'), { recursive: true });
      await writeFile(
        file('sx/s.tar.gz'),
        await tarOf([
          { name: 'suid.sh', body: '#!/bin/sh', mode: 0o4755 },
          { name: 'sgid.bin', body: 'x', mode: 0o2750 },
        ]),
      );
      expect((await call('POST', 'decompress', { root: '/sx', file: 's.tar.gz' })).status).toBe(204);
      expect((await stat(file('sx/suid.sh'))).mode & 0o7777).toBe(0o755);
      expect((await stat(file('sx/sgid.bin'))).mode & 0o7777).toBe(0o750);
    });

    it('refuses unknown formats (400) and missing archives (404)', async () => {
      await writeFile(file('notes.txt'), 'just text');
      expect(await call('POST', 'decompress', { root: '/', file: 'notes.txt' })).toMatchObject({
        status: 400,
        body: { error: 'The archive provided is in a format Wings does not understand.' },
      });
      expect(await call('POST', 'decompress', { root: '/', file: 'none.zip' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', 'decompress', { root: '/', file: 'secret-link' })).toMatchObject({
        status: 404,
      });
    });

    it('refuses tar entries with ../ or absolute names before writing anything', async () => {
      await mkdir(file('slip'), { recursive: true });
      await writeFile(
        file('slip/t.tar.gz'),
        await tarOf([
          { name: 'first.txt', body: 'written?' },
          { name: '../../../escape.txt', body: 'pwn' },
        ]),
      );
      expect(await call('POST', 'decompress', { root: '/slip', file: 't.tar.gz' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      await writeFile(
        file('slip/abs.tar'),
        await tarOf([{ name: `${outside}/abs.txt`, body: 'pwn' }], false),
      );
      expect((await call('POST', 'decompress', { root: '/slip', file: 'abs.tar' })).status).toBe(404);
      expect(existsSync(file('slip/first.txt'))).toBe(false);
      expect(existsSync(path.join(path.dirname(dir), 'escape.txt'))).toBe(false);
      expect(existsSync(path.join(stack.config.system.data, '..', 'escape.txt'))).toBe(false);
      await secretIntact();
    });

    it('refuses zip-slip entries', async () => {
      await writeFile(file('zs.zip'), zipOf([{ name: '../zip-escape.txt', body: 'pwn' }]));
      expect(await call('POST', 'decompress', { root: '/', file: 'zs.zip' })).toMatchObject({ status: 404 });
      expect(existsSync(path.join(stack.config.system.data, 'zip-escape.txt'))).toBe(false);
    });

    it('a symlink entry followed by a file through it: the link is never created, nothing lands outside', async () => {
      await mkdir(file('sl'), { recursive: true });
      await writeFile(
        file('sl/s.tar.gz'),
        await tarOf([
          { name: 'evil', type: 'symlink', linkname: outside },
          { name: 'evil/pwned.txt', body: 'pwn' },
          { name: 'rel', type: 'symlink', linkname: '../../..' },
        ]),
      );
      expect((await call('POST', 'decompress', { root: '/sl', file: 's.tar.gz' })).status).toBe(204);
      expect((await lstat(file('sl/evil'))).isDirectory()).toBe(true);
      expect(await readFile(file('sl/evil/pwned.txt'), 'utf8')).toBe('pwn');
      expect(existsSync(file('sl/rel'))).toBe(false);
      await secretIntact();
    });

    it('never writes through an existing link', async () => {
      await mkdir(file('ow'), { recursive: true });
      await symlink(path.join(outside, 'secret'), file('ow/secret'));
      await writeFile(file('ow/o.tar'), await tarOf([{ name: 'secret', body: 'overwritten' }], false));
      expect((await call('POST', 'decompress', { root: '/ow', file: 'o.tar' })).status).toBe(404);
      await secretIntact();
    });
  });

  describe('POST files/chmod', () => {
    it('changes modes; missing files are ignored', async () => {
      await writeFile(file('ch.sh'), 'x');
      await mkdir(file('chdir'), { recursive: true });
      const res = await call('POST', 'chmod', {
        root: '/',
        files: [
          { file: 'ch.sh', mode: '755' },
          { file: 'chdir', mode: '0700' },
          { file: 'gone', mode: '644' },
        ],
      });
      expect(res.status).toBe(204);
      expect((await stat(file('ch.sh'))).mode & 0o777).toBe(0o755);
      expect((await stat(file('chdir'))).mode & 0o777).toBe(0o700);
    });

    it('refuses setuid and setgid bits (400) before changing anything; the daemon is root', async () => {
      await writeFile(file('suid.sh'), '#!/bin/sh\n');
      await chmod(file('suid.sh'), 0o755);
      for (const mode of ['4755', '2755', '6777']) {
        const res = await call('POST', 'chmod', {
          root: '/',
          files: [
            { file: 'suid.sh', mode: '700' },
            { file: 'suid.sh', mode },
          ],
        });
        expect(res).toMatchObject({
          status: 400,
          body: { error: 'Invalid file mode: setuid and setgid bits are not allowed.' },
        });
      }
      expect((await stat(file('suid.sh'))).mode & 0o7777).toBe(0o755);
      expect(
        (await call('POST', 'chmod', { root: '/', files: [{ file: 'suid.sh', mode: '1755' }] })).status,
      ).toBe(204);
    });

    it('refuses an empty list (422) and bad modes (400) before changing anything', async () => {
      expect(await call('POST', 'chmod', { root: '/', files: [] })).toMatchObject({
        status: 422,
        body: { error: 'No files to chmod were provided.' },
      });
      expect(
        await call('POST', 'chmod', {
          root: '/',
          files: [
            { file: 'ch.sh', mode: '600' },
            { file: 'ch.sh', mode: '9z' },
          ],
        }),
      ).toMatchObject({ status: 400, body: { error: 'Invalid file mode.' } });
      expect((await stat(file('ch.sh'))).mode & 0o777).toBe(0o755);
    });

    it('never changes a file through a link (GHSA-rhq6-9rgh-v45c)', async () => {
      expect(
        await call('POST', 'chmod', { root: '/', files: [{ file: 'secret-link', mode: '777' }] }),
      ).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(
        await call('POST', 'chmod', { root: '/', files: [{ file: 'link-out/secret', mode: '777' }] }),
      ).toMatchObject({
        status: 404,
      });
      expect(
        (await call('POST', 'chmod', { root: '/', files: [{ file: 'link-out', mode: '777' }] })).status,
      ).toBe(404);
      expect((await stat(outside)).mode & 0o777).not.toBe(0o777);
      await secretIntact();
    });
  });

  describe('signed URLs', () => {
    const now = (): number => Math.floor(Date.now() / 1000);
    const token = (
      claims: Record<string, unknown>,
      secret = TOKEN,
      header: Record<string, unknown> = {},
    ): Promise<string> =>
      signToken(
        secret,
        {
          iat: now(),
          nbf: now() - 300,
          exp: now() + 900,
          unique_id: randomUUID(),
          server_uuid: uuid,
          // Each URL's one purpose (§9.2b): the downloads here name a file, the uploads do not.
          scope: 'file_path' in claims ? 'file-download' : 'file-upload',
          ...claims,
        },
        header,
      );
    const download = async (t: string | Promise<string>): Promise<Response> =>
      fetch(`${stack.url}/download/file?token=${encodeURIComponent(await t)}`);
    const upload = async (
      t: string | Promise<string>,
      directory: string,
      form: FormData | string,
    ): Promise<Response> =>
      fetch(
        `${stack.url}/upload/file?token=${encodeURIComponent(await t)}&directory=${encodeURIComponent(directory)}`,
        {
          method: 'POST',
          body: form,
          ...(typeof form === 'string' ? { headers: { 'Content-Type': 'text/plain' } } : {}),
        },
      );
    const form = (...files: [string, string | Buffer][]): FormData => {
      const f = new FormData();
      for (const [name, body] of files) f.append('files', new Blob([body]), name);
      return f;
    };

    it('download: the file as an attachment, once per token, without a bearer', async () => {
      await writeFile(file('dl.txt'), 'download me');
      const t = token({ file_path: '/dl.txt' });
      const res = await download(t);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="dl.txt"');
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(await res.text()).toBe('download me');
      const again = await download(t);
      expect([again.status, await again.json()]).toEqual([
        404,
        { error: 'The requested resource was not found on this server.' },
      ]);
    });

    it('download: forged, expired, alg-none and wrong-server tokens are refused', async () => {
      const invalid = { error: 'The token provided is not valid or has expired.' };
      for (const t of [
        token({ file_path: 'dl.txt' }, 'z'.repeat(64)),
        token({ file_path: 'dl.txt', exp: now() - 1 }),
        token({ file_path: 'dl.txt' }, TOKEN, { alg: 'none' }),
        'not.a.token',
      ]) {
        const res = await download(t);
        expect([res.status, await res.json()]).toEqual([403, invalid]);
      }
      const stranger = await download(token({ file_path: 'dl.txt', server_uuid: randomUUID() }));
      expect(stranger.status).toBe(404);
    });

    it('download: directories, links out and missing files are 404', async () => {
      for (const p of ['/', 'keep', 'secret-link', 'link-out/secret', '../../etc/passwd', 'missing']) {
        const res = await download(token({ file_path: p }));
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain('OUTSIDE SECRET');
      }
    });

    it('upload: writes each `files` part into directory (0644), with the base name only', async () => {
      const res = await upload(token({}), '/up/dir', form(['one.txt', 'ONE'], ['../../two.txt', 'TWO']));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
      expect(await readFile(file('up/dir/one.txt'), 'utf8')).toBe('ONE');
      expect(await readFile(file('up/dir/two.txt'), 'utf8')).toBe('TWO');
      expect((await stat(file('up/dir/one.txt'))).mode & 0o777).toBe(0o644);
    });

    it("upload: each file is reported to the panel as server:file.uploaded by the token's user", async () => {
      const user = randomUUID();
      const res = await upload(
        token({ user_uuid: user }),
        '/up/./logged',
        form(['a.txt', 'A'], ['b.txt', 'B']),
      );
      expect(res.status).toBe(200);
      await stack.daemon.activity.flush();
      const mine = stack.remote.activity.filter((e) => e.user === user);
      expect(mine.map((e) => [e.event, e.server, e.metadata])).toEqual([
        ['server:file.uploaded', uuid, { file: 'a.txt', directory: '/up/logged' }],
        ['server:file.uploaded', uuid, { file: 'b.txt', directory: '/up/logged' }],
      ]);
    });

    it('upload: refusals (token, not multipart, no files, too large, denylist, link out)', async () => {
      expect((await upload(token({}, 'z'.repeat(64)), '/', form(['f.txt', 'x']))).status).toBe(403);
      expect((await upload(token({ exp: now() - 10 }), '/', form(['f.txt', 'x']))).status).toBe(403);
      expect((await upload(token({ server_uuid: randomUUID() }), '/', form(['f.txt', 'x']))).status).toBe(
        404,
      );
      const notForm = await upload(token({}), '/', 'plain');
      expect([notForm.status, await notForm.json()]).toEqual([
        400,
        { error: 'Failed to get multipart form data from request.' },
      ]);
      const empty = new FormData();
      empty.append('other', 'value');
      const none = await upload(token({}), '/', empty);
      expect([none.status, await none.json()]).toEqual([
        400,
        { error: 'No files were found on the request body.' },
      ]);
      const big = await upload(token({}), '/', form(['small.txt', 's'], ['big.bin', Buffer.alloc(MIB + 1)]));
      expect([big.status, await big.json()]).toEqual([
        400,
        { error: 'File big.bin is larger than the maximum file upload size of 1 MB.' },
      ]);
      expect(existsSync(file('small.txt'))).toBe(false);
      const denied = await upload(token({}), '/', form(['mod.jar', 'x']));
      expect([denied.status, await denied.json()]).toEqual([403, DENIED]);
      expect(existsSync(file('mod.jar'))).toBe(false);
      expect((await upload(token({}), '/link-out', form(['planted.txt', 'x']))).status).toBe(404);
      expect((await upload(token({}), '/', form(['secret-link', 'x']))).status).toBe(404);
      await secretIntact();
    });
  });

  describe('disk quota', () => {
    let q: string;
    let qdir: string;
    let full: string;

    beforeAll(async () => {
      const id = randomUUID();
      q = await stack.createInstalled(id, { settings: { build: build(id, 1) } });
      qdir = path.join(stack.config.system.data, q);
      await writeFile(path.join(qdir, 'big.bin'), randomBytes(600 * KIB));
      const id2 = randomUUID();
      full = await stack.createInstalled(id2, { settings: { build: build(id2, 1) } });
      await writeFile(path.join(stack.config.system.data, full, 'huge.bin'), Buffer.alloc(MIB + KIB));
      // The load-time walk ran before these files existed (written behind the daemon's back): walk
      // again now rather than waiting for the disk check interval.
      expect(await stack.daemon.manager.get(q)!.disk.refresh()).toBeGreaterThanOrEqual(600 * KIB);
      expect(await stack.daemon.manager.get(full)!.disk.refresh()).toBeGreaterThan(MIB);
    }, 30_000);

    it('copy that would not fit is refused and writes nothing', async () => {
      expect(await call('POST', 'copy', { location: 'big.bin' }, q)).toMatchObject({
        status: 400,
        body: NO_SPACE,
      });
      expect(existsSync(path.join(qdir, 'big copy.bin'))).toBe(false);
    });

    it('an archive larger than the remaining quota is refused before extracting (archive bomb)', async () => {
      const bomb = await tarOf([{ name: 'bomb.bin', body: Buffer.alloc(2 * MIB) }]);
      expect(bomb.length).toBeLessThan(20 * KIB);
      await writeFile(path.join(qdir, 'bomb.tar.gz'), bomb);
      expect(await call('POST', 'decompress', { root: '/', file: 'bomb.tar.gz' }, q)).toMatchObject({
        status: 400,
        body: NO_SPACE,
      });
      expect(existsSync(path.join(qdir, 'bomb.bin'))).toBe(false);
    });

    it('compress: an archive that does not fit is deleted (400); over quota already → 409', async () => {
      expect(await call('POST', 'compress', { root: '/', files: ['big.bin'] }, q)).toMatchObject({
        status: 400,
        body: NO_SPACE,
      });
      expect((await readdir(qdir)).filter((n) => n.startsWith('archive-'))).toEqual([]);
      expect(await call('POST', 'compress', { root: '/', files: ['huge.bin'] }, full)).toMatchObject({
        status: 409,
        body: {
          error: 'This server does not have enough available disk space to generate a compressed archive.',
        },
      });
    });

    it('upload over the quota is refused', async () => {
      const t = await signToken(TOKEN, {
        scope: 'file-upload',
        exp: Math.floor(Date.now() / 1000) + 60,
        unique_id: randomUUID(),
        server_uuid: q,
      });
      const f = new FormData();
      f.append('files', new Blob([Buffer.alloc(600 * KIB)]), 'more.bin');
      const res = await fetch(`${stack.url}/upload/file?token=${t}&directory=/`, { method: 'POST', body: f });
      expect([res.status, await res.json()]).toEqual([400, NO_SPACE]);
      expect(existsSync(path.join(qdir, 'more.bin'))).toBe(false);
    });
  });
});
