import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jail } from '../fs/jail.ts';
import { TOKEN, startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { writeBackupArchive } from './archive-writer.ts';

const run = promisify(execFile);
/** Larger than one gzip member (1 MiB), so the archive is several concatenated members. */
const BIG = Buffer.concat([randomBytes(1024 * 1024), Buffer.alloc(2 * 1024 * 1024, 'abc')]);

/**
 * Local backups (protocol §2.4, §4.2, §8.10) on a real daemon with real files: the archive is read
 * back with the system's `tar`, the panel's report comes to the remote stand-in.
 */
describe('backups', () => {
  let stack: Stack;
  let uuid: string;
  let ws: WsClient;
  const dir = () => path.join(stack.config.system.data, uuid);
  const archive = (b: string) => path.join(stack.config.system.backup_directory, `${b}.tar.gz`);
  const report = (b: string) => stack.remote.backupReports.find((r) => r.uuid === b)?.body;

  /** Ask for a backup and wait for the panel to be told of it. */
  async function backup(ignore?: string): Promise<{ id: string; body: Record<string, unknown> }> {
    const id = randomUUID();
    const res = await stack.api('POST', `/api/servers/${uuid}/backup`, {
      adapter: 'wings',
      uuid: id,
      ...(ignore === undefined ? {} : { ignore }),
    });
    expect(res.status).toBe(202);
    await waitUntil(() => report(id) !== undefined, 30_000, 'backup report');
    return { id, body: report(id)! };
  }

  async function listing(file: string): Promise<string[]> {
    const { stdout } = await run('tar', ['-tzf', file]);
    return stdout.split('\n').filter((l) => l !== '');
  }

  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
    await mkdir(path.join(dir(), 'world/region'), { recursive: true });
    await mkdir(path.join(dir(), 'logs'), { recursive: true });
    await writeFile(path.join(dir(), 'world/region/r.0.0.mca'), BIG);
    await writeFile(path.join(dir(), 'server.properties'), 'motd=hello\n');
    await writeFile(path.join(dir(), 'logs/latest.log'), 'log line\n');
    await writeFile(path.join(dir(), 'logs/keep.log'), 'kept\n');
    await writeFile(path.join(dir(), 'cache.tmp'), 'temporary\n');
    await symlink('/etc', path.join(dir(), 'etc-link'));
    ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
  });

  afterAll(async () => {
    await stack?.dispose();
  });

  it('writes a .tar.gz that tar reads, with the files, links as links, and the sha1 reported', async () => {
    const { id, body } = await backup('');
    expect(body).toMatchObject({ successful: true, checksum_type: 'sha1', parts: null });
    const bytes = await readFile(archive(id));
    expect(body.size).toBe(bytes.length);
    expect(body.checksum).toBe(createHash('sha1').update(bytes).digest('hex'));

    const names = await listing(archive(id));
    expect(names).toEqual(
      expect.arrayContaining(['server.properties', 'world/region/r.0.0.mca', 'logs/latest.log', 'etc-link']),
    );
    const { stdout } = await run('tar', ['-tvzf', archive(id), 'etc-link']);
    expect(stdout).toMatch(/^l.* etc-link -> \/etc$/m);
    // Nothing below the link's target was read into the archive.
    expect(names.some((n) => n.startsWith('etc-link/'))).toBe(false);

    const out = await mkdtemp('/var/tmp/talon-backup-extract-');
    try {
      await run('tar', ['-xzf', archive(id), '-C', out]);
      expect((await readFile(path.join(out, 'world/region/r.0.0.mca'))).equals(BIG)).toBe(true);
      expect(await readFile(path.join(out, 'server.properties'), 'utf8')).toBe('motd=hello\n');
    } finally {
      await rm(out, { recursive: true, force: true });
    }

    const event = await ws.waitFor(
      (m) => m.event === 'backup completed' && m.args?.[0]?.includes(id) === true,
    );
    expect(JSON.parse(event.args![0]!)).toEqual({
      uuid: id,
      is_successful: true,
      checksum: body.checksum,
      checksum_type: 'sha1',
      file_size: bytes.length,
    });
  });

  it('leaves out what the request ignores, and keeps what `!` brings back', async () => {
    const { id } = await backup('*.tmp\nlogs/\n/world/region/*\n!world/region/r.0.0.mca');
    const names = await listing(archive(id));
    expect(names).toContain('server.properties');
    expect(names).toContain('world/region/r.0.0.mca');
    expect(names).not.toContain('cache.tmp');
    expect(names.some((n) => n.startsWith('logs/') && n !== 'logs/')).toBe(false);
  });

  it('uses .pteroignore when the request ignores nothing', async () => {
    await writeFile(path.join(dir(), '.pteroignore'), '# comment\n*.log\n!keep.log\n');
    try {
      const { id } = await backup();
      const names = await listing(archive(id));
      expect(names).toContain('logs/keep.log');
      expect(names).not.toContain('logs/latest.log');
      expect(names).toContain('cache.tmp');
    } finally {
      await rm(path.join(dir(), '.pteroignore'));
    }
  });

  it('reports a failure, and leaves no archive, when the archive cannot be written', async () => {
    const id = randomUUID();
    await mkdir(`${archive(id)}.part`, { recursive: true }); // the part file cannot be opened
    const { body } = await (async () => {
      const res = await stack.api('POST', `/api/servers/${uuid}/backup`, { adapter: 'wings', uuid: id });
      expect(res.status).toBe(202);
      await waitUntil(() => report(id) !== undefined, 30_000, 'backup report');
      return { body: report(id)! };
    })();
    expect(body).toEqual({ checksum: '', checksum_type: '', size: 0, successful: false, parts: null });
    await expect(stat(archive(id))).rejects.toThrow(/ENOENT/);
    const event = await ws.waitFor(
      (m) => m.event === 'backup completed' && m.args?.[0]?.includes(id) === true,
    );
    expect(JSON.parse(event.args![0]!)).toMatchObject({ is_successful: false, file_size: 0 });
  });

  it('removes the archive when the panel cannot be told of it', async () => {
    stack.remote.backupReportStatus = 400;
    try {
      const { id } = await backup('');
      await ws.waitFor((m) => m.event === 'backup completed' && m.args?.[0]?.includes(id) === true);
      await expect(stat(archive(id))).rejects.toThrow(/ENOENT/);
    } finally {
      stack.remote.backupReportStatus = 204;
    }
  });

  it('removes the part file when writing fails midway', async () => {
    const out = await mkdtemp('/var/tmp/talon-backup-part-');
    try {
      const missing = new Jail(path.join(out, 'no-such-server'));
      await expect(
        writeBackupArchive(missing, out, 'x.tar.gz', { level: 1, writeLimitMiB: 0, ignore: null }),
      ).rejects.toThrow();
      expect(await readdir(out)).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('serves the archive through a signed URL once, and refuses bad tokens', async () => {
    const { id } = await backup('');
    const bytes = await readFile(archive(id));
    const url = (token: string) => `${stack.url}/download/backup?token=${encodeURIComponent(token)}`;
    const good = await stack.token(uuid, { backup_uuid: id, unique_id: randomUUID() });

    const res = await fetch(url(good));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    // (Buffer.equals: a deep toEqual over megabytes takes seconds)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const reused = await fetch(url(good));
    expect(reused.status).toBe(404);
    await reused.arrayBuffer();

    const now = Math.floor(Date.now() / 1000);
    const claims = { server_uuid: uuid, backup_uuid: id, exp: now + 600, unique_id: randomUUID() };
    const wrongKey = await fetch(url(await signToken('z'.repeat(64), claims)));
    expect(wrongKey.status).toBe(403);
    await wrongKey.arrayBuffer();
    const expired = await fetch(url(await signToken(TOKEN, { ...claims, exp: now - 10 })));
    expect(expired.status).toBe(403);
    await expired.arrayBuffer();
    const otherBackup = await fetch(
      url(await stack.token(uuid, { backup_uuid: randomUUID(), unique_id: randomUUID() })),
    );
    expect(otherBackup.status).toBe(404);
    expect(await otherBackup.json()).toEqual({ error: 'The requested backup was not found on this server.' });
  });

  it('deletes an archive, then answers 404 for it', async () => {
    const { id } = await backup('');
    const del = await stack.api('DELETE', `/api/servers/${uuid}/backup/${id}`);
    expect(del.status).toBe(204);
    await expect(stat(archive(id))).rejects.toThrow(/ENOENT/);
    const again = await stack.api('DELETE', `/api/servers/${uuid}/backup/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'The requested backup was not found on this server.' });
  });

  it('refuses a malformed request and an unknown server', async () => {
    const bad = await stack.api('POST', `/api/servers/${uuid}/backup`, { adapter: 'wings', uuid: '../x' });
    expect(bad.status).toBe(422);
    const unknown = await stack.api('POST', `/api/servers/${randomUUID()}/backup`, {
      adapter: 'wings',
      uuid: randomUUID(),
    });
    expect(unknown.status).toBe(404);
  });
});
