import { constants, type Stats } from 'node:fs';
import { open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';
import yauzl from 'yauzl';
import { formatBytesShort } from '@talon/shared';
import type { FileDenylist } from './denylist.ts';
import { FileError, errnoOf, fromOs } from './errors.ts';

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
import { rfc3339 } from './file-object.ts';
import { entryMode, type Jail } from './jail.ts';
import { CREATE_FLAGS, DIR_FLAGS, at, closeQuietly, lstatAt } from './at.ts';

export class UnknownArchive extends Error {}

/** `archive-<RFC 3339 without colons>.tar.gz`, as Wings names it (in UTC here). */
export function archiveName(now = new Date()): string {
  return `archive-${rfc3339(now).replace(/:/g, '')}.tar.gz`;
}

interface Selected {
  dir: FileHandle;
  name: string;
  entry: string;
  stat: Stats;
}

/** Where `compress` writes the archive (a staged file the caller puts in place). */
export interface ArchiveSink {
  write(chunk: Uint8Array): Promise<void>;
  /** Whether `st` is the file the archive is being written to (never packed into itself). */
  isSelf(st: Stats): boolean;
}

/**
 * Write a tar.gz of the listed entries (below `rootParts`) to `out`. Only regular files become
 * entries (directories are walked by descriptors opened with O_NOFOLLOW; symlinks are skipped,
 * never followed, so nothing outside the root can be read). Entry names are relative to the root.
 */
export async function compress(
  jail: Jail,
  rootParts: readonly string[],
  files: readonly string[],
  level: number,
  out: ArchiveSink,
): Promise<void> {
  const root = await jail.walk(rootParts, false);
  try {
    const pack = tarStream.pack();
    const writing = pipeline(
      pack,
      zlib.createGzip({ level }),
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          out.write(chunk).then(() => cb(), cb);
        },
      }),
    );
    await packAll(pack, writing, async () => {
      const wanted = [
        ...new Set(files.map((f) => jail.parts(path.posix.join('/', f)).join('/')).filter((f) => f !== '')),
      ];
      for (const w of wanted) {
        await visit(root, w.split('/'), [], async (s) => {
          if (out.isSelf(s.stat)) return; // the archive itself
          await addFile(pack, s);
        });
      }
    });
  } finally {
    await closeQuietly(root);
  }
}

/**
 * Add the entries (`add`), finish the tar `pack` and wait for `writing`, the pipeline carrying the
 * pack to its destination. On a failure the pack is destroyed, and the pipeline's own failure (a
 * refused write: the quota, a full disk) is the reason thrown when it has one, not the entry it cut
 * short. Shared by the file manager's archives and the backups.
 */
export async function packAll(
  pack: tarStream.Pack,
  writing: Promise<void>,
  add: () => Promise<void>,
): Promise<void> {
  writing.catch(() => undefined); // awaited below; it may fail while an entry is being added
  try {
    await add();
    pack.finalize();
    await writing;
  } catch (err) {
    pack.destroy(err as Error);
    throw await writing.then(
      () => err,
      (reason: unknown) => reason,
    );
  }
}

/**
 * Visit the regular files at `rest` (relative to `dir`), descending into directories by
 * descriptor. Components on the way must be real directories (O_NOFOLLOW): a listed path through a
 * link is skipped, as are links, sockets and entries that vanish.
 */
async function visit(
  dir: FileHandle,
  rest: string[],
  prefix: string[],
  fn: (s: Selected) => Promise<void>,
): Promise<void> {
  const [head, ...tail] = rest;
  if (head === undefined) return;
  const st = await lstatAt(dir, head);
  if (!st) return;
  const here = [...prefix, head];
  if (st.isFile() && tail.length === 0) return fn({ dir, name: head, entry: here.join('/'), stat: st });
  if (!st.isDirectory()) return;
  let sub: FileHandle;
  try {
    sub = await open(at(dir, head), DIR_FLAGS);
  } catch {
    return; // swapped for a link or removed
  }
  try {
    if (tail.length > 0) return await visit(sub, tail, here, fn);
    const names = (await readdir(`/proc/self/fd/${sub.fd}`)).sort();
    for (const n of names) await visit(sub, [n], here, fn);
  } finally {
    await closeQuietly(sub);
  }
}

async function addFile(pack: tarStream.Pack, s: Selected): Promise<void> {
  let h: FileHandle;
  try {
    h = await open(at(s.dir, s.name), READ_FLAGS);
  } catch {
    return; // swapped for a link (ELOOP) or removed
  }
  try {
    const st = await h.stat();
    if (!st.isFile() || st.ino !== s.stat.ino) return; // swapped since the lstat
    const size = st.size;
    let done!: () => void;
    let fail!: (err: Error) => void;
    const finished = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    const entry = pack.entry({ name: s.entry, size, mode: st.mode & 0o7777, mtime: st.mtime }, (err) =>
      err ? fail(err) : done(),
    );
    // An archive that fails meanwhile (a refused write) ends the entry with an error: it is awaited
    // below, and ends a wait for `drain` too.
    finished.catch(() => undefined);
    let pos = 0;
    while (pos < size) {
      const buf = Buffer.alloc(Math.min(64 * 1024, size - pos));
      const { bytesRead } = await h.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      if (!entry.write(buf.subarray(0, bytesRead))) await Promise.race([once(entry, 'drain'), finished]);
    }
    if (pos < size) entry.write(Buffer.alloc(size - pos)); // shrank meanwhile: pad to the header's size
    entry.end(undefined);
    await finished;
  } finally {
    await closeQuietly(h);
  }
}

/** An entry's bytes (tar-stream or yauzl stream). */
type Content = AsyncIterable<unknown> & { resume(): unknown };

/** One archive entry, normalised. */
interface ArchiveEntry {
  parts: string[];
  kind: 'file' | 'directory' | 'other';
  size: number;
  mode: number;
  mtime: Date | null;
}

/**
 * Components of an entry name, or null when the name is absolute or climbs out of the root
 * (zip-slip): such an archive is refused before anything is written.
 */
export function entryParts(name: string): string[] | null {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[A-Za-z]:/.test(n)) return null;
  const out: string[] = [];
  for (const c of n.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(c);
  }
  return out;
}

type Format = 'tar' | 'tar.gz' | 'zip';

async function sniff(h: FileHandle): Promise<Format> {
  const buf = Buffer.alloc(512);
  const { bytesRead } = await h.read(buf, 0, 512, 0);
  if (bytesRead >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return 'tar.gz';
  if (bytesRead >= 4 && buf.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (bytesRead >= 4 && buf.readUInt32LE(0) === 0x06054b50) return 'zip';
  if (bytesRead >= 262 && buf.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  throw new UnknownArchive();
}

/** Iterate a tar (optionally gzip) stream; `onEntry` gets the entry and its content stream. */
async function eachTar(
  h: FileHandle,
  gz: boolean,
  onEntry: (e: ArchiveEntry, content: Content) => Promise<void>,
): Promise<void> {
  const extract = tarStream.extract();
  const src = h.createReadStream({ start: 0, autoClose: false });
  const done = gz ? pipeline(src, zlib.createGunzip(), extract) : pipeline(src, extract);
  try {
    for await (const entry of extract) {
      const hd = entry.header;
      const parts = entryParts(hd.name);
      if (!parts) throw new FileError('outside_root', `archive entry ${hd.name}`);
      const kind =
        hd.type === 'file' || hd.type === 'contiguous-file'
          ? 'file'
          : hd.type === 'directory'
            ? 'directory'
            : 'other';
      await onEntry(
        { parts, kind, size: hd.size ?? 0, mode: hd.mode ?? 0o644, mtime: hd.mtime ?? null },
        entry,
      );
      entry.resume();
    }
  } catch (err) {
    src.destroy();
    await done.catch(() => undefined);
    throw err;
  }
  await done.catch((err: unknown) => {
    throw new UnknownArchive(String(err));
  });
}

/** yauzl reads through our descriptor (never closing it), so both passes share the jail's open. */
class HandleReader extends yauzl.RandomAccessReader {
  constructor(private readonly h: FileHandle) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const h = this.h;
    async function* range(): AsyncGenerator<Buffer> {
      for (let pos = start; pos < end;) {
        const buf = Buffer.alloc(Math.min(64 * 1024, end - pos));
        const { bytesRead } = await h.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) return;
        pos += bytesRead;
        yield buf.subarray(0, bytesRead);
      }
    }
    return Readable.from(range());
  }
}

async function openZip(h: FileHandle): Promise<yauzl.ZipFile> {
  const size = (await h.stat()).size;
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      new HandleReader(h),
      size,
      { autoClose: false, lazyEntries: true, strictFileNames: false },
      (err, zip) => (err ? reject(new UnknownArchive(err.message)) : resolve(zip)),
    ),
  );
}

async function eachZip(
  h: FileHandle,
  onEntry: (e: ArchiveEntry, content: Content | null) => Promise<void>,
  withContent: boolean,
): Promise<void> {
  const zip = await openZip(h);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => {
        // yauzl's own name checks (zip-slip): refused like ours.
        if (/^(invalid relative path|absolute path)/.test(err.message)) {
          reject(new FileError('outside_root', err.message));
        } else reject(err instanceof FileError ? err : new UnknownArchive(err.message));
      });
      zip.on('end', () => resolve());
      zip.on('entry', (z: yauzl.Entry) => {
        void (async () => {
          const parts = entryParts(z.fileName);
          if (!parts) throw new FileError('outside_root', `archive entry ${z.fileName}`);
          const unixMode = (z.externalFileAttributes >>> 16) & 0o170000;
          const isDir = z.fileName.endsWith('/') || unixMode === 0o040000;
          const kind = isDir ? 'directory' : unixMode === 0 || unixMode === 0o100000 ? 'file' : 'other';
          const mode = (z.externalFileAttributes >>> 16) & 0o7777 || 0o644;
          let content: Content | null = null;
          if (withContent && kind === 'file') {
            content = await new Promise<Content>((res, rej) =>
              zip.openReadStream(z, (err, s) => (err ? rej(err) : res(s))),
            );
          }
          await onEntry({ parts, kind, size: z.uncompressedSize, mode, mtime: z.getLastModDate() }, content);
          content?.resume();
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function each(
  h: FileHandle,
  format: Format,
  withContent: boolean,
  onEntry: (e: ArchiveEntry, content: Content | null) => Promise<void>,
): Promise<void> {
  if (format === 'zip') return eachZip(h, onEntry, withContent);
  return eachTar(h, format === 'tar.gz', onEntry);
}

export interface DecompressOptions {
  denylist: FileDenylist;
  /** Bytes that may still be written (quota), or null when unlimited: the headers' sum must fit. */
  room: number | null;
  /**
   * The disk account, told of each change as it happens: bytes about to be written (may throw
   * `no_space`: the quota as the bytes arrive) and, negative, a replaced file's bytes freed.
   */
  account: (deltaBytes: number) => Promise<void>;
  /** Most bytes one archive may expand to, quota or not (`system.decompress_max_bytes`). */
  maxBytes: number;
  /** Most entries one archive may hold (`system.decompress_max_entries`). */
  maxEntries: number;
}

/**
 * An archive over the node's decompression limits (an archive bomb: a small file that expands
 * to more bytes or more files than the node is willing to write). The message names the limit.
 */
export class ArchiveTooLarge extends Error {
  static bytes(max: number): ArchiveTooLarge {
    return new ArchiveTooLarge(
      `The archive is too large to extract: it expands to more than ${formatBytesShort(max)}, the decompression limit of this node.`,
    );
  }

  static entries(max: number): ArchiveTooLarge {
    return new ArchiveTooLarge(
      `The archive is too large to extract: it holds more than ${max} entries, the decompression limit of this node.`,
    );
  }
}

/**
 * Extract the archive at `fileParts` into `rootParts` (protocol §8.9). A first pass reads every
 * entry header: an absolute or escaping name refuses the whole archive, and the sum of the file
 * sizes must fit `room`, before anything is written. The second pass writes each file through the
 * jail (parents by descriptor walk, final component O_NOFOLLOW) and never writes more than the
 * header promised; every byte is accounted (`account`) before it is written. Directory entries
 * only create directories; symlink, hard-link and device entries are skipped (never created, so a
 * later entry cannot pass through them); denylisted entries are skipped.
 */
export async function decompress(
  jail: Jail,
  rootParts: readonly string[],
  fileParts: readonly string[],
  opts: DecompressOptions,
): Promise<void> {
  const { handle } = await jail.openRead(fileParts.join('/'));
  try {
    const format = await sniff(handle);
    // Headers only; stops at the first entry over a limit, so a bomb is refused having written
    // nothing (and without reading the rest of it).
    let total = 0;
    let entries = 0;
    await each(handle, format, false, async (e) => {
      if (++entries > opts.maxEntries) throw ArchiveTooLarge.entries(opts.maxEntries);
      if (e.kind === 'file') total += e.size;
      if (total > opts.maxBytes) throw ArchiveTooLarge.bytes(opts.maxBytes);
    });
    if (opts.room !== null && total > opts.room) throw new FileError('no_space', `archive needs ${total}`);

    let streamed = 0;
    await each(handle, format, true, async (e, content) => {
      const target = [...rootParts, ...e.parts];
      if (e.parts.length === 0 || e.kind === 'other') return;
      if (opts.denylist.denies(target, e.kind === 'directory')) return;
      if (e.kind === 'directory') {
        await closeQuietly(await jail.walk(target, true));
        return;
      }
      if (!content) return;
      await writeEntry(jail, target, e, content, opts.account, (n) => {
        streamed += n;
        if (streamed > opts.maxBytes) throw ArchiveTooLarge.bytes(opts.maxBytes);
      });
    });
  } finally {
    await closeQuietly(handle);
  }
}

async function writeEntry(
  jail: Jail,
  target: string[],
  e: ArchiveEntry,
  content: Content,
  account: (deltaBytes: number) => Promise<void>,
  check: (bytes: number) => void,
): Promise<void> {
  const dir = await jail.walk(target.slice(0, -1), true);
  const name = target.at(-1)!;
  try {
    const before = await lstatAt(dir, name);
    if (before?.isDirectory()) throw new FileError('is_directory', target.join('/'));
    if (before && !before.isFile())
      throw new FileError('outside_root', `${target.join('/')} is not a regular file`);
    if (before) {
      try {
        await unlink(at(dir, name)); // replaced, never written through
        await account(-before.size);
      } catch (err) {
        if (errnoOf(err) !== 'ENOENT') throw fromOs(err, name);
      }
    }
    const mode = entryMode(e.mode) || 0o644;
    let out: FileHandle;
    try {
      out = await open(at(dir, name), CREATE_FLAGS, mode);
    } catch (err) {
      throw fromOs(err, target.join('/'));
    }
    let size = 0;
    try {
      await out.chmod(mode);
      if (jail.owner) await out.chown(jail.owner.uid, jail.owner.gid);
      const limit = e.size;
      await pipeline(
        content,
        new Transform({
          transform(chunk: Buffer, _enc, cb) {
            try {
              const part = chunk.subarray(0, Math.max(0, limit - size));
              check(part.length);
              size += part.length;
              cb(null, part);
            } catch (err) {
              cb(err as Error);
            }
          },
        }),
        new Writable({
          write(chunk: Buffer, _enc, cb) {
            // Counted piece by piece as written, not summed at the end: a disk-usage walk meanwhile
            // would have counted the pieces already on disk a second time.
            account(chunk.length)
              .then(() => out.write(chunk))
              .then(() => cb(), cb);
          },
        }),
      );
      if (e.mtime) await out.utimes(e.mtime, e.mtime); // futimes: the descriptor, never a link
    } finally {
      await closeQuietly(out);
    }
  } finally {
    await closeQuietly(dir);
  }
}
