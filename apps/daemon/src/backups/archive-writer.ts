import fs, { constants, type Dirent, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readlink, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Ignore } from 'ignore';
import { DIR_FLAGS, READ_FLAGS, at, closeQuietly, lstatAt, self } from '../fs/at.ts';
import type { Jail } from '../fs/jail.ts';
import { ParallelGzip } from './parallel-gzip.ts';
import { WriteLimiter, type Clock } from './rate-limit.ts';
import { END_OF_ARCHIVE, encodeHeader, padding, type TarEntry } from './tar-header.ts';

/** Files up to this size are read whole while earlier entries are still being packed. */
const SMALL_FILE = 256 * 1024;
/** Files of one directory opened (and, when small, read) ahead of the one being packed. */
const AHEAD = 16;

export interface ArchiveOptions {
  /** gzip level 0–9. */
  level: number;
  /** Most MiB/s written to disk; 0: unlimited. */
  writeLimitMiB: number;
  /** Files (relative paths) these rules ignore are left out; directories are still descended. */
  ignore: Ignore | null;
  /** Told of the bytes of file contents archived so far (progress). */
  onProgress?: (fileBytes: number) => void;
  /** The write limit's clock (tests). */
  clock?: Clock;
  /** Compression threads; default one per core (tests pin it). */
  threads?: number;
  /** Writes compressed bytes to the archive file (tests: a disk that fills up midway). */
  writeOut?: (fd: number, buf: Buffer) => Promise<void>;
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
  const limiter = new WriteLimiter(opts.writeLimitMiB, opts.clock);
  const gz = new ParallelGzip(
    opts.level,
    async (member) => {
      sha1.update(member);
      size += member.length;
      await (opts.writeOut ?? writeAll)(out.fd, member);
      await limiter.wrote(member.length);
    },
    opts.threads,
  );
  try {
    const root = await jail.walk([], false);
    try {
      await new Walk(gz, opts.ignore, opts.onProgress).tree(root, []);
    } finally {
      await closeQuietly(root);
    }
    await gz.write(END_OF_ARCHIVE);
    await gz.end();
  } finally {
    await gz.close(); // already stopped after a success; after a failure, the threads end here
  }
  return { checksum: sha1.digest('hex'), size };
}

/** A regular file opened ahead: its stat, and either its whole content or its open descriptor. */
type Loaded = { st: Stats; data: Buffer; fd: null } | { st: Stats; data: null; fd: number };

/**
 * The walk of one backup, writing the tar stream straight into the compressor. Each directory is
 * entered by descriptor (O_DIRECTORY|O_NOFOLLOW relative to its parent), each file opened
 * O_NOFOLLOW and its descriptor's fstat decides (a regular file or nothing): what is read is what
 * was opened, never a link's target, so nothing outside the server root is read. A symlink is
 * stored as a link (its target text only, never opened). Sockets, FIFOs and devices are skipped.
 *
 * Speed: the names' types come with the listing (no lstat per file); the next files of a
 * directory are opened and, when small, read ahead, several at once, while earlier ones are
 * packed (a world of thousands of small files costs a few round trips to the thread pool at a
 * time, not four each in turn); a large file is read straight into the compressor's chunk. At most
 * AHEAD files per directory level are open or held ahead, in buffers reused from file to file.
 */
class Walk {
  private archived = 0;
  private readonly buffers: Buffer[] = [];

  constructor(
    private readonly gz: ParallelGzip,
    private readonly ignore: Ignore | null,
    private readonly onProgress?: (bytes: number) => void,
  ) {}

  async tree(dir: FileHandle, prefix: string[]): Promise<void> {
    const entries = (await readdir(self(dir), { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const rels = entries.map((e) => [...prefix, e.name].join('/'));
    const wanted = entries.map((e, i) =>
      e.isDirectory() ? !this.ignore?.ignores(`${rels[i]}/`) : !this.ignore?.ignores(rels[i]!),
    );
    const ahead: (Promise<Loaded | null> | undefined)[] = [];
    let next = 0;
    const fill = (from: number) => {
      for (; next < entries.length && next < from + AHEAD; next++) {
        if (wanted[next] && entries[next]!.isFile()) ahead[next] = this.load(dir, entries[next]!.name);
      }
    };
    try {
      for (let i = 0; i < entries.length; i++) {
        fill(i);
        if (!wanted[i]) continue;
        const e = entries[i]!;
        if (e.isFile()) {
          const loaded = await ahead[i];
          ahead[i] = undefined;
          if (loaded) await this.file(rels[i]!, loaded);
        } else if (e.isDirectory()) {
          await this.directory(dir, e, prefix);
        } else if (e.isSymbolicLink()) {
          await this.symlink(dir, e.name, rels[i]!);
        }
      }
    } finally {
      // A failure midway: close what was opened ahead.
      for (const p of ahead) {
        const l = await p?.catch(() => null);
        if (l?.fd != null) await closeFdQuietly(l.fd);
      }
    }
  }

  private async directory(dir: FileHandle, e: Dirent, prefix: string[]): Promise<void> {
    let sub: FileHandle;
    try {
      sub = await open(at(dir, e.name), DIR_FLAGS);
    } catch {
      return; // swapped for a link or removed
    }
    try {
      const st = await sub.stat();
      const name = [...prefix, e.name];
      await this.header({
        name: `${name.join('/')}/`,
        type: 'directory',
        size: 0,
        mode: st.mode,
        mtime: st.mtime,
      });
      await this.tree(sub, name);
    } finally {
      await closeQuietly(sub);
    }
  }

  private async symlink(dir: FileHandle, name: string, rel: string): Promise<void> {
    const st = await lstatAt(dir, name);
    const target = st?.isSymbolicLink() ? await readlink(at(dir, name)).catch(() => null) : null;
    if (!st || target === null) return; // removed or swapped meanwhile
    await this.header({
      name: rel,
      type: 'symlink',
      size: 0,
      linkname: target,
      mode: st.mode,
      mtime: st.mtime,
    });
  }

  private header(e: TarEntry): Promise<void> {
    return this.gz.write(encodeHeader(e));
  }

  private progress(bytes: number): void {
    this.archived += bytes;
    this.onProgress?.(this.archived);
  }

  private async file(rel: string, { st, data, fd }: Loaded): Promise<void> {
    await this.header({ name: rel, type: 'file', size: st.size, mode: st.mode, mtime: st.mtime });
    if (data) {
      await this.gz.write(data);
      this.buffers.push(Buffer.from(data.buffer)); // the whole reused buffer, for the next small file
      this.progress(data.length);
    } else {
      try {
        // The header's size is what fstat said: a file that grows meanwhile is cut there, one
        // that shrinks is padded with zeros (`fill`).
        let pos = 0;
        await this.gz.fill(st.size, async (buf, offset, length) => {
          const { bytesRead } = await readFd(fd, buf, offset, length, pos);
          pos += bytesRead;
          this.progress(bytesRead);
          return bytesRead;
        });
      } finally {
        await closeFdQuietly(fd);
      }
    }
    const pad = padding(st.size);
    if (pad > 0) await this.gz.write(END_OF_ARCHIVE.subarray(0, pad));
  }

  /**
   * Open a file the listing said is regular: O_NOFOLLOW (a link swapped in fails with ELOOP), then
   * the descriptor's own fstat must say regular file. Small files are read whole (into a reused
   * buffer) and closed. Null when it is gone, swapped or unreadable.
   */
  private async load(dir: FileHandle, name: string): Promise<Loaded | null> {
    let fd: number;
    try {
      fd = await openFd(at(dir, name), READ_FLAGS);
    } catch {
      return null;
    }
    try {
      const st = await fstatFd(fd);
      if (!st.isFile()) {
        await closeFdQuietly(fd);
        return null;
      }
      if (st.size > SMALL_FILE) return { st, data: null, fd };
      const buf = this.buffers.pop() ?? Buffer.allocUnsafeSlow(SMALL_FILE);
      const data = buf.subarray(0, st.size);
      const got = await readAll(fd, data, 0);
      if (got < st.size) data.fill(0, got); // shrank meanwhile: pad to the size stat gave
      await closeFdQuietly(fd);
      return { st, data, fd: null };
    } catch {
      await closeFdQuietly(fd);
      return null;
    }
  }
}

// Plain descriptors for the files (not FileHandle objects): thousands of small files each cost a
// FileHandle, its promise machinery and its close, measurable in a profile of the walk.
const openFd = promisify(fs.open);
const fstatFd = promisify(fs.fstat);
const readFd = promisify(fs.read);
const closeFd = promisify(fs.close);
const closeFdQuietly = (fd: number) => closeFd(fd).catch(() => undefined);

/** Fill `buf` from `fd` at `pos`; the bytes read (fewer at the end of the file). */
async function readAll(fd: number, buf: Buffer, pos: number): Promise<number> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await readFd(fd, buf, got, buf.length - got, pos + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

const writeFd = promisify(fs.write);

/** Write all of `buf` at the descriptor's position. */
async function writeAll(fd: number, buf: Buffer): Promise<void> {
  let at = 0;
  while (at < buf.length) at += (await writeFd(fd, buf, at, buf.length - at)).bytesWritten;
}
