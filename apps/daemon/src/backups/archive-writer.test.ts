import { execFile } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jail } from '../fs/jail.ts';
import { writeBackupArchive } from './archive-writer.ts';
import { checkArchive, extractArchive } from './restore.ts';

const run = promisify(execFile);
const MIB = 1024 * 1024;
const noise = (seed: number, bytes: number) =>
  createCipheriv('aes-256-ctr', Buffer.alloc(32, seed), Buffer.alloc(16)).update(Buffer.alloc(bytes));

/**
 * The archive writer on real files, read back by the system's `tar`: the tar headers are our own
 * (tar-header.ts), so names of every length, modes, times and sizes around block and chunk edges
 * must come back exactly.
 */
describe('backup archive writer', () => {
  let root: string;
  let server: string;
  const when = new Date('2023-06-01T12:34:56Z');
  const files: Record<string, Buffer> = {
    'empty.txt': Buffer.alloc(0),
    'block.bin': Buffer.alloc(512, 1),
    'odd.bin': noise(1, 513),
    'small/many/a.yml': Buffer.from('a: 1\n'),
    // Larger than a small file read whole (256 KiB) and than a gzip member (1 MiB): read in pieces.
    'large.bin': Buffer.concat([noise(2, MIB + 7), Buffer.alloc(MIB, 'x')]),
    'ünïcode —名前.txt': Buffer.from('utf-8 name\n'),
    [`${'d'.repeat(90)}/${'n'.repeat(99)}.txt`]: Buffer.from('ustar prefix + name\n'),
    [`${'long-'.repeat(40)}.txt`]: Buffer.from('pax path\n'),
  };

  beforeAll(async () => {
    root = await mkdtemp('/var/tmp/talon-archive-writer-');
    server = path.join(root, 'server');
    for (const [name, data] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(server, name)), { recursive: true });
      await writeFile(path.join(server, name), data);
    }
    await chmod(path.join(server, 'odd.bin'), 0o751);
    await utimes(path.join(server, 'odd.bin'), when, when);
    await symlink(`${'t'.repeat(150)}`, path.join(server, 'long-link'));
    await chmod(path.join(server, 'small/many'), 0o700);
    await utimes(path.join(server, 'small/many'), when, when);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes entries the system tar extracts exactly: names, contents, modes, times, links', async () => {
    await writeBackupArchive(new Jail(server), path.join(root, 'out'), 'a.tar.gz', {
      level: 1,
      writeLimitMiB: 0,
      ignore: null,
      threads: 2,
    });
    const out = path.join(root, 'x');
    await mkdir(out);
    await run('tar', ['-xzf', path.join(root, 'out', 'a.tar.gz'), '-C', out]);
    for (const [name, data] of Object.entries(files)) {
      expect((await readFile(path.join(out, name))).equals(data), name).toBe(true);
    }
    const odd = await stat(path.join(out, 'odd.bin'));
    expect(odd.mode & 0o7777).toBe(0o751);
    expect(odd.mtime.getTime()).toBe(when.getTime());
    const dir = await stat(path.join(out, 'small/many'));
    expect(dir.mode & 0o7777).toBe(0o700);
    expect(dir.mtime.getTime()).toBe(when.getTime());
    expect((await lstat(path.join(out, 'long-link'))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(out, 'long-link'))).toBe('t'.repeat(150));
  });

  it('is restored exactly by our own restore: contents, file and directory modes and times, links', async () => {
    await writeBackupArchive(new Jail(server), path.join(root, 'out'), 'r.tar.gz', {
      level: 1,
      writeLimitMiB: 0,
      ignore: null,
    });
    const dest = path.join(root, 'restored');
    await mkdir(dest);
    const h = await open(path.join(root, 'out', 'r.tar.gz'), 'r');
    try {
      const plan = await checkArchive(h);
      expect(plan.bytes).toBe(Object.values(files).reduce((n, d) => n + d.length, 0));
      await extractArchive(h, new Jail(dest), () => undefined);
    } finally {
      await h.close();
    }
    for (const [name, data] of Object.entries(files)) {
      expect((await readFile(path.join(dest, name))).equals(data), name).toBe(true);
    }
    const odd = await stat(path.join(dest, 'odd.bin'));
    expect(odd.mode & 0o7777).toBe(0o751);
    expect(odd.mtime.getTime()).toBe(when.getTime());
    // Set after the directory's contents were written, which would have moved it to now.
    const dir = await stat(path.join(dest, 'small/many'));
    expect(dir.mode & 0o7777).toBe(0o700);
    expect(dir.mtime.getTime()).toBe(when.getTime());
    expect(await readlink(path.join(dest, 'long-link'))).toBe('t'.repeat(150));
  });

  it('removes the part and leaves no archive when the disk fills up midway', async () => {
    const dest = path.join(root, 'full');
    let written = 0;
    const writeOut = async (_fd: number, buf: Buffer) => {
      if (written > 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      written += buf.length;
    };
    await expect(
      writeBackupArchive(new Jail(server), dest, 'b.tar.gz', {
        level: 0,
        writeLimitMiB: 0,
        ignore: null,
        writeOut,
      }),
    ).rejects.toThrow(/ENOSPC/);
    expect(written).toBeGreaterThan(0); // it failed after a first member was written
    expect(await readdir(dest)).toEqual([]);
  });
});
