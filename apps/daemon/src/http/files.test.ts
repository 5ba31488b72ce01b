import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, fixtureServer, startStack, type Stack } from '../test-support/harness.ts';
import { contentDisposition } from './files.ts';

const NOT_FOUND = { error: 'The requested resources was not found on the system.' };
const IS_DIR = { error: 'Cannot perform that action: file is a directory.' };
const DENIED = { error: 'This file cannot be modified: present in egg denylist.' };
const NO_SPACE = { error: 'There is not enough disk space available to perform that action.' };
const MIB = 1024 * 1024;

describe('file routes (contents, write, list-directory)', () => {
  let stack: Stack;
  let uuid: string;
  let dir: string;
  let outside: string;

  beforeAll(async () => {
    // upload_limit 2 MiB so the body limit can be tested without huge bodies.
    stack = await startStack({ config: { api: { host: '127.0.0.1', port: 0, upload_limit: 2 } } });
    const id = randomUUID();
    uuid = await stack.createInstalled(id, {
      settings: {
        egg: { id: randomUUID(), file_denylist: ['*.jar', '!allowed.jar', '/config/', '# comment'] },
        // 1 MiB quota.
        build: { ...(fixtureServer(id).settings.build as Record<string, unknown>), disk_space: 1 },
      },
    });
    dir = path.join(stack.config.system.data, uuid);
    outside = await mkdtemp(path.join(os.tmpdir(), 'talon-files-outside-'));
    await writeFile(path.join(outside, 'secret'), 'OUTSIDE SECRET');
  });
  afterAll(async () => {
    await stack?.dispose();
    if (outside) await rm(outside, { recursive: true, force: true });
  });

  const url = (route: string, q: Record<string, string>): string =>
    `${stack.url}/api/servers/${uuid}/files/${route}?${new URLSearchParams(q).toString()}`;

  const get = (route: string, q: Record<string, string>, token = TOKEN): Promise<Response> =>
    fetch(url(route, q), { headers: { Authorization: `Bearer ${token}` } });

  const write = (file: string, body: string | Buffer, type = 'application/octet-stream'): Promise<Response> =>
    fetch(url('write', { file }), {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': type },
      body,
    });

  describe('GET files/contents', () => {
    it('answers the raw bytes with Wings headers', async () => {
      await writeFile(path.join(dir, 'notes.txt'), 'hello files\n');
      const res = await get('contents', { file: '/notes.txt' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mime-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('content-length')).toBe('12');
      expect(res.headers.get('content-disposition')).toBeNull();
      expect(await res.text()).toBe('hello files\n');

      await writeFile(path.join(dir, 'blob.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 1, 2]));
      const bin = await get('contents', { file: 'blob.gz' });
      expect(bin.headers.get('x-mime-type')).toBe('application/gzip');
      expect(Buffer.from(await bin.arrayBuffer())).toEqual(Buffer.from([0x1f, 0x8b, 8, 0, 1, 2]));

      await writeFile(path.join(dir, 'empty'), '');
      const empty = await get('contents', { file: 'empty' });
      expect([empty.status, empty.headers.get('content-length'), await empty.text()]).toEqual([200, '0', '']);
    });

    it('download=1: attachment with a quoted file name, octet-stream', async () => {
      const name = 'a";x=y.txt';
      await writeFile(path.join(dir, name), 'data');
      const res = await get('contents', { file: name, download: '1' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="a\\";x=y.txt"');
      expect(res.headers.get('x-mime-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('data');
      expect(contentDisposition('é.txt')).toBe(`attachment; filename="_.txt"; filename*=UTF-8''%C3%A9.txt`);
    });

    it('paths are relative to the server root; nothing outside it is reachable', async () => {
      await mkdir(path.join(dir, 'etc'), { recursive: true });
      await writeFile(path.join(dir, 'etc', 'passwd'), 'server passwd');
      const abs = await get('contents', { file: '/etc/passwd' });
      expect(await abs.text()).toBe('server passwd');
      const prefixed = await get('contents', { file: path.join(dir, 'etc/passwd') });
      expect(await prefixed.text()).toBe('server passwd');

      await symlink(outside, path.join(dir, 'out'));
      await symlink(path.join(outside, 'secret'), path.join(dir, 'secret-link'));
      for (const file of [
        '../../etc/passwd',
        '../' + path.basename(dir) + '/../../../etc/passwd',
        'out/secret',
        'secret-link',
        'missing.txt',
      ]) {
        const res = await get('contents', { file });
        expect([file, res.status, await res.json()]).toEqual([file, 404, NOT_FOUND]);
      }
    });

    it('directories, FIFOs and over-long names are refused with Wings messages', async () => {
      const d = await get('contents', { file: 'etc' });
      expect([d.status, await d.json()]).toEqual([400, IS_DIR]);
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      const fifo = await get('contents', { file: 'pipe' });
      expect([fifo.status, await fifo.json()]).toEqual([400, { error: 'Cannot open files of this type.' }]);
      const long = await get('contents', { file: 'x'.repeat(300) });
      expect([long.status, await long.json()]).toEqual([
        400,
        { error: 'Cannot perform that action: file name is too long.' },
      ]);
    });

    it('needs the node token and a known server', async () => {
      const none = await fetch(url('contents', { file: 'notes.txt' }));
      expect(none.status).toBe(401);
      const wrong = await get('contents', { file: 'notes.txt' }, 'nope');
      expect(wrong.status).toBe(403);
      for (const route of ['contents', 'list-directory']) {
        const unknown = await fetch(
          `${stack.url}/api/servers/${randomUUID()}/files/${route}?file=notes.txt&directory=/`,
          { headers: { Authorization: `Bearer ${TOKEN}` } },
        );
        expect([unknown.status, await unknown.json()]).toEqual([
          404,
          { error: 'The requested resource does not exist on this instance.' },
        ]);
      }
    });
  });

  describe('POST files/write', () => {
    it('writes the raw body, creating parents 0755 and the file 0644, owned by the server user', async () => {
      const res = await write('/new/deep/file.txt', 'first version');
      expect(res.status).toBe(204);
      const file = path.join(dir, 'new', 'deep', 'file.txt');
      expect(await readFile(file, 'utf8')).toBe('first version');
      const st = await stat(file);
      expect(st.mode & 0o777).toBe(0o644);
      expect((await stat(path.join(dir, 'new'))).mode & 0o777).toBe(0o755);
      if (process.getuid?.() === 0) {
        expect([st.uid, st.gid]).toEqual([stack.config.runtime.uid, stack.config.runtime.gid]);
        expect((await stat(path.join(dir, 'new', 'deep'))).uid).toBe(stack.config.runtime.uid);
      }
      // Truncates; any content type is stored verbatim (JSON is not parsed here).
      expect((await write('new/deep/file.txt', '{"a": 1}', 'application/json')).status).toBe(204);
      expect(await readFile(file, 'utf8')).toBe('{"a": 1}');
      expect((await write('plain.txt', 'text body', 'text/plain')).status).toBe(204);
      expect(await readFile(path.join(dir, 'plain.txt'), 'utf8')).toBe('text body');
      expect((await write('zero.txt', '')).status).toBe(204);
      expect(await readFile(path.join(dir, 'zero.txt'), 'utf8')).toBe('');
      // Other routes still parse JSON.
      expect((await stack.api('POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['x'] })).status).toBe(204);
    });

    it('refuses a body without Content-Length', async () => {
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('chunked'));
          c.close();
        },
      });
      const res = await fetch(url('write', { file: 'chunked.txt' }), {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' },
        body: stream,
        duplex: 'half',
      });
      expect([res.status, await res.json()]).toEqual([400, { error: 'Missing Content-Length' }]);
      expect(existsSync(path.join(dir, 'chunked.txt'))).toBe(false);
    });

    it('refuses to replace a directory', async () => {
      await mkdir(path.join(dir, 'adir'), { recursive: true });
      const res = await write('adir', 'x');
      expect([res.status, await res.json()]).toEqual([
        400,
        { error: 'Cannot write file, name conflicts with an existing directory by the same name.' },
      ]);
      expect((await lstat(path.join(dir, 'adir'))).isDirectory()).toBe(true);
    });

    it('enforces the egg denylist on the cleaned path, changing nothing', async () => {
      for (const file of ['server.jar', 'plugins/x.jar', 'config/app.yml', 'x/../config/app.yml']) {
        const res = await write(file, 'nope');
        expect([file, res.status, await res.json()]).toEqual([file, 403, DENIED]);
      }
      expect(existsSync(path.join(dir, 'server.jar'))).toBe(false);
      expect(existsSync(path.join(dir, 'plugins'))).toBe(false);
      expect(existsSync(path.join(dir, 'config'))).toBe(false);
      expect((await write('allowed.jar', 'ok')).status).toBe(204);
      expect((await write('sub/config/app.yml', 'ok')).status).toBe(204); // `/config/` is anchored
      // Reading is not denylisted (Wings checks writes only).
      expect(await (await get('contents', { file: 'allowed.jar' })).text()).toBe('ok');
    });

    it('CVE-2023-25152: dangling and absolute symlinks cannot create files outside the root', async () => {
      const target = path.join(outside, 'newdir');
      await symlink(target, path.join(dir, 'link'));
      await symlink('/', path.join(dir, 'link2'));
      for (const file of ['link/x', 'link', 'link2/root/.ssh/authorized_keys', 'out/secret', 'secret-link']) {
        const res = await write(file, 'pwned');
        expect([file, res.status, await res.json()]).toEqual([file, 404, NOT_FOUND]);
      }
      expect(existsSync(target)).toBe(false);
      expect((await readdir(outside)).sort()).toEqual(['secret']);
      expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
      const traversal = await write('../../escape.txt', 'x');
      expect([traversal.status, await traversal.json()]).toEqual([404, NOT_FOUND]);
      expect(existsSync(path.join(stack.config.system.data, '..', 'escape.txt'))).toBe(false);
    });

    it('checks the disk quota with new size − old size, and the upload limit', async () => {
      const s = stack.daemon.manager.get(uuid)!;
      const used = await s.disk.refresh();
      expect(used).toBeLessThan(0.1 * MIB);
      const big = Buffer.alloc(Math.floor(0.8 * MIB), 0x61);
      expect((await write('big.bin', big)).status).toBe(204);
      // Replacing it with a slightly bigger file fits: only the difference counts.
      expect((await write('big.bin', Buffer.alloc(Math.floor(0.85 * MIB), 0x62))).status).toBe(204);
      const over = await write('more.bin', Buffer.alloc(Math.floor(0.3 * MIB)));
      expect([over.status, await over.json()]).toEqual([400, NO_SPACE]);
      expect(existsSync(path.join(dir, 'more.bin'))).toBe(false);
      const overParents = await write('a/b/more.bin', Buffer.alloc(Math.floor(0.3 * MIB)));
      expect(overParents.status).toBe(400);
      expect(existsSync(path.join(dir, 'a'))).toBe(false);
      expect((await readFile(path.join(dir, 'big.bin')))[0]).toBe(0x62);
      // Above api.upload_limit (2 MiB): refused before the handler runs.
      const huge = await write('huge.bin', Buffer.alloc(3 * MIB));
      expect([huge.status, await huge.json()]).toEqual([
        413,
        { error: 'The request body is larger than the upload limit of this node.' },
      ]);
      expect(existsSync(path.join(dir, 'huge.bin'))).toBe(false);
    });
  });

  describe('GET files/list-directory', () => {
    it('lists file objects, directories first then by name, symlinks as themselves', async () => {
      const sub = path.join(dir, 'listing');
      await mkdir(path.join(sub, 'zdir'), { recursive: true });
      await mkdir(path.join(sub, 'adir'));
      await writeFile(path.join(sub, 'b.txt'), 'bee');
      await writeFile(path.join(sub, 'a.bin'), Buffer.from([0, 1, 2]));
      await symlink('b.txt', path.join(sub, 'c-link'));
      const res = await get('list-directory', { directory: '/listing' });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>[];
      expect(body.map((f) => f.name)).toEqual(['adir', 'zdir', 'a.bin', 'b.txt', 'c-link']);
      const st = await stat(path.join(sub, 'b.txt'));
      const iso = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
      expect(body[3]).toEqual({
        name: 'b.txt',
        created: iso(st.ctime),
        modified: iso(st.mtime),
        mode: '-rw-r--r--',
        mode_bits: '644',
        size: 3,
        directory: false,
        file: true,
        symlink: false,
        mime: 'text/plain; charset=utf-8',
      });
      expect(body[0]).toMatchObject({
        mode: 'drwxr-xr-x',
        directory: true,
        file: false,
        mime: 'inode/directory',
      });
      expect(body[2]).toMatchObject({ mime: 'application/octet-stream', size: 3 });
      expect(body[4]).toMatchObject({ mode: 'Lrwxrwxrwx', symlink: true, file: true, directory: false });

      const root = await get('list-directory', { directory: '/' });
      expect(((await root.json()) as { name: string }[]).map((f) => f.name)).toContain('listing');
    });

    it('missing directory → 404 with the directory message; outside the root → 404', async () => {
      await symlink(outside, path.join(dir, 'list-out'));
      await symlink('/', path.join(dir, 'list-root'));
      const missing = await get('list-directory', { directory: '/nope' });
      expect([missing.status, await missing.json()]).toEqual([
        404,
        { error: 'The requested directory does not exist.' },
      ]);
      for (const directory of ['list-out', '../..', 'list-root/etc', 'list-root']) {
        const res = await get('list-directory', { directory });
        expect([directory, res.status, await res.json()]).toEqual([directory, 404, NOT_FOUND]);
      }
      const none = await fetch(url('list-directory', { directory: '/' }));
      expect(none.status).toBe(401);
    });
  });

  it('a server installed without a script has its directory at once: files can be written first', async () => {
    const id = await stack.createInstalled(randomUUID(), { settings: { skip_egg_scripts: true } });
    expect(existsSync(path.join(stack.config.system.data, id))).toBe(true);
    const res = await fetch(`${stack.url}/api/servers/${id}/files/write?file=eula.txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' },
      body: 'eula=true\n',
    });
    expect(res.status).toBe(204);
    expect(await readFile(path.join(stack.config.system.data, id, 'eula.txt'), 'utf8')).toBe('eula=true\n');
  });
});
