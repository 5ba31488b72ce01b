import { constants, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readlink, rename, unlink, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tarStream from 'tar-stream';
import type { Ignore } from 'ignore';
import { DIR_FLAGS, READ_FLAGS, at, closeQuietly, lstatAt, self } from '../fs/at.ts';
import type { Jail } from '../fs/jail.ts';
import { ParallelGzip } from './parallel-gzip.ts';

const READ_BYTES = 256 * 1024;

export interface ArchiveOptions {
  /** gzip level 0–9. */
  level: number;
  /** Most MiB/s written to disk; 0: unlimited. */
  writeLimitMiB: number;
  /** Files (relative paths) these rules ignore are left out; directories are still descended. */
  ignore: Ignore | null;
  /** Told of the tar bytes produced so far (progress). */
  onProgress?: (tarBytes: number) => void;
}

export interface ArchiveResult {
  /** Hex SHA-1 of the archive file, as Wings reports it (`checksum_type` sha1). */
  checksum: string;
  size: number;
}

/**
 * Write the whole server root as `<dir>/<name>` (a .tar.gz). The archive is built in
 * `<name>.part`, fsynced and renamed into place only when complete, so a failure or a killed
 * daemon never leaves a file under the final name; on failure the part is removed.
 */
export async function writeBackupArchive(
  jail: Jail,
  dir: string,
  name: string,
  opts: ArchiveOptions,
): Promise<ArchiveResult> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const final = path.join(dir, name);
  const part = `${final}.part`;
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = constants;
  const out = await open(part, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600);
  try {
    const result = await archiveTo(jail, out, opts);
    await out.sync();
    await out.close();
    await rename(part, final);
    return result;
  } catch (err) {
    await closeQuietly(out);
    await unlink(part).catch(() => undefined);
    throw err;
  }
}

async function archiveTo(jail: Jail, out: FileHandle, opts: ArchiveOptions): Promise<ArchiveResult> {
  const sha1 = createHash('sha1');
  let size = 0;
  const started = Date.now();
  const bytesPerMs = (opts.writeLimitMiB * 1024 * 1024) / 1000;
  const gz = new ParallelGzip(opts.level, Math.max(2, os.availableParallelism() * 2), async (member) => {
    sha1.update(member);
    size += member.length;
    await out.write(member);
    if (bytesPerMs > 0) {
      // Rate limit: never ahead of the allowed bytes for the time spent so far.
      const ahead = size / bytesPerMs - (Date.now() - started);
      if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
    }
  });

  let tarBytes = 0;
  const pack = tarStream.pack();
  const writing = pipeline(
    pack,
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        tarBytes += chunk.length;
        opts.onProgress?.(tarBytes);
        gz.write(chunk).then(() => cb(), cb);
      },
      final(cb) {
        gz.end().then(() => cb(), cb);
      },
    }),
  );
  writing.catch(() => undefined); // awaited below
  const root = await jail.walk([], false);
  try {
    await addTree(pack, root, [], opts.ignore);
    pack.finalize();
    await writing;
  } catch (err) {
    pack.destroy(err as Error);
    throw await writing.then(
      () => err,
      (reason: unknown) => reason,
    );
  } finally {
    await closeQuietly(root);
  }
  return { checksum: sha1.digest('hex'), size };
}

/**
 * Add everything below the directory open as `dir`. Each directory is entered by descriptor
 * (O_DIRECTORY|O_NOFOLLOW relative to its parent), each file opened O_NOFOLLOW and checked to be
 * the inode that was listed; a symlink is stored as a link (its target text only, never opened),
 * so nothing outside the server root is read. Sockets, FIFOs and devices are skipped.
 */
async function addTree(pack: tarStream.Pack, dir: FileHandle, prefix: string[], ignore: Ignore | null) {
  const names = (await readdir(self(dir))).sort();
  for (const name of names) {
    const rel = [...prefix, name].join('/');
    const st = await lstatAt(dir, name);
    if (!st) continue; // removed meanwhile
    if (st.isDirectory()) {
      if (ignore?.ignores(`${rel}/`)) continue;
      let sub: FileHandle;
      try {
        sub = await open(at(dir, name), DIR_FLAGS);
      } catch {
        continue; // swapped for a link or removed
      }
      try {
        await entry(pack, { name: `${rel}/`, type: 'directory', mode: st.mode & 0o7777, mtime: st.mtime });
        await addTree(pack, sub, [...prefix, name], ignore);
      } finally {
        await closeQuietly(sub);
      }
      continue;
    }
    if (ignore?.ignores(rel)) continue;
    if (st.isSymbolicLink()) {
      const target = await readlink(at(dir, name)).catch(() => null);
      if (target === null) continue;
      await entry(pack, {
        name: rel,
        type: 'symlink',
        linkname: target,
        mode: st.mode & 0o7777,
        mtime: st.mtime,
      });
    } else if (st.isFile()) {
      await addFile(pack, dir, name, rel, st);
    }
  }
}

function entry(pack: tarStream.Pack, header: Parameters<tarStream.Pack['entry']>[0]): Promise<void> {
  return new Promise((resolve, reject) => pack.entry(header, (err) => (err ? reject(err) : resolve())));
}

async function addFile(pack: tarStream.Pack, dir: FileHandle, name: string, rel: string, listed: Stats) {
  let h: FileHandle;
  try {
    h = await open(at(dir, name), READ_FLAGS);
  } catch {
    return; // swapped for a link (ELOOP) or removed
  }
  try {
    const st = await h.stat();
    if (!st.isFile() || st.ino !== listed.ino) return; // swapped since the listing
    const size = st.size;
    let done!: () => void;
    let fail!: (err: Error) => void;
    const finished = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    finished.catch(() => undefined); // awaited below
    const stream = pack.entry({ name: rel, size, mode: st.mode & 0o7777, mtime: st.mtime }, (err) =>
      err ? fail(err) : done(),
    );
    let pos = 0;
    while (pos < size) {
      const buf = Buffer.allocUnsafe(Math.min(READ_BYTES, size - pos));
      const { bytesRead } = await h.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      if (!stream.write(buf.subarray(0, bytesRead))) {
        await Promise.race([new Promise<void>((r) => stream.once('drain', () => r())), finished]);
      }
    }
    if (pos < size) stream.write(Buffer.alloc(size - pos)); // shrank meanwhile: pad to the header's size
    stream.end(undefined);
    await finished;
  } finally {
    await closeQuietly(h);
  }
}
