import { constants } from 'node:fs';
import { lchown, lutimes, open, symlink, unlink, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';
import { entryParts } from '../fs/archive.ts';
import { CREATE_FLAGS, at, closeQuietly, lstatAt } from '../fs/at.ts';
import { FileError, fromOs } from '../fs/errors.ts';
import { entryMode, type Jail } from '../fs/jail.ts';
import { emptyTree, removeAt } from '../fs/tree.ts';

/** An archive that cannot be restored; the message is for the operator. */
export class RestoreRefused extends Error {}

/** Open a local backup archive (never through a link); null when there is none. */
export async function openArchive(file: string): Promise<FileHandle | null> {
  const h = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (h && !(await h.stat()).isFile()) {
    await closeQuietly(h);
    return null;
  }
  return h;
}

type Entry = tarStream.Header;
/** An entry's bytes as tar-stream gives them. */
type Content = AsyncIterable<unknown> & { resume(): unknown };

/** Every entry of the .tar.gz open as `h`, with its content stream. */
async function eachEntry(
  h: FileHandle,
  fn: (header: Entry, content: Content) => Promise<void>,
): Promise<void> {
  const extract = tarStream.extract();
  const src = h.createReadStream({ start: 0, autoClose: false });
  // 256 KiB pieces (not zlib's 16 KiB): a file's content reaches the disk in fewer writes.
  const done = pipeline(src, zlib.createGunzip({ chunkSize: 256 * 1024 }), extract);
  done.catch(() => undefined); // awaited below
  try {
    for await (const e of extract) {
      await fn(e.header, e);
      e.resume();
    }
  } catch (err) {
    src.destroy();
    throw err;
  }
  await done.catch((err: unknown) => {
    throw new RestoreRefused(`the backup archive is damaged: ${(err as Error).message}`);
  });
}

/** What the first pass over an archive found. */
export interface ArchivePlan {
  entries: number;
  /** Bytes of the regular files the restore will write (the entries' header sizes: exact). */
  bytes: number;
  /** Bytes of the server's existing files those entries replace (when `sizeNow` was given). */
  replaced: number;
}

/**
 * Read the whole archive once without writing anything: it must be a readable .tar.gz whose every
 * entry stays inside the root (no absolute name, no `..` above it) and never passes through a
 * link the archive itself creates (a link entry, then a file "below" it). Called before anything
 * of the server is deleted. It also sums what the restore will write, for the disk limit:
 * `sizeNow(name)`, when given, tells the size of the regular file a file entry would replace.
 */
export async function checkArchive(
  h: FileHandle,
  sizeNow?: (name: string) => Promise<number>,
): Promise<ArchivePlan> {
  const links = new Set<string>();
  const plan: ArchivePlan = { entries: 0, bytes: 0, replaced: 0 };
  try {
    await eachEntry(h, async (hd) => {
      const parts = entryParts(hd.name);
      if (!parts) throw new RestoreRefused(`the backup archive has an entry outside the server: ${hd.name}`);
      for (let i = 1; i < parts.length; i++) {
        if (links.has(parts.slice(0, i).join('/'))) {
          throw new RestoreRefused(`the backup archive writes through a link: ${hd.name}`);
        }
      }
      if (hd.type === 'link' && !entryParts(hd.linkname ?? '/')) {
        // Hard links are never written (extractArchive skips them), but one naming a file outside
        // the server marks an archive that is not a backup of ours.
        throw new RestoreRefused(`the backup archive links to a file outside the server: ${hd.name}`);
      }
      const key = parts.join('/');
      if (hd.type === 'symlink') links.add(key);
      else links.delete(key);
      if (isFileEntry(hd) && parts.length > 0) {
        plan.bytes += hd.size ?? 0;
        if (sizeNow) plan.replaced += await sizeNow(key);
      }
      plan.entries++;
    });
  } catch (err) {
    if (err instanceof RestoreRefused) throw err;
    throw new RestoreRefused(`the backup archive cannot be read: ${(err as Error).message}`);
  }
  return plan;
}

function isFileEntry(hd: Entry): boolean {
  return hd.type === 'file' || hd.type === 'contiguous-file';
}

/** Delete everything in the server's directory (the root itself stays). */
export async function truncateRoot(jail: Jail): Promise<void> {
  const root = await jail.walk([], false);
  try {
    await emptyTree(root, { swapped: 0 });
  } finally {
    await closeQuietly(root);
  }
}

/**
 * Write the archive's entries into the jail: directories (with their mode), regular files (mode,
 * owner, modification time; an existing entry of the same name is replaced, never written through)
 * and symlinks (recreated as links, never followed). Every parent is reached by the jail's
 * descriptor walk, which refuses any link leading outside the root. Other entry types (hard links,
 * devices, FIFOs) are skipped: a hard link could name a file outside the server.
 *
 * Directories get their mode and modification time last, deepest first, once everything below
 * them is written, as tar does: writing into a directory sets its time to now, and a read-only
 * directory could not be written into.
 */
export async function extractArchive(
  h: FileHandle,
  jail: Jail,
  onEntry: (name: string) => void,
): Promise<void> {
  const dirs: { parts: string[]; mode: number; mtime: Date | null }[] = [];
  const parents = new ParentCache(jail);
  await eachEntry(h, async (hd, content) => {
    const parts = entryParts(hd.name);
    if (!parts) throw new RestoreRefused(`entry outside the server: ${hd.name}`);
    if (parts.length === 0) return;
    onEntry(parts.join('/'));
    await parents.replacing(parts.join('/'));
    if (hd.type === 'directory') {
      await closeQuietly(await jail.walk(parts, true));
      dirs.push({ parts, mode: entryMode(hd.mode ?? 0o755), mtime: hd.mtime ?? null });
      return;
    }
    if (!isFileEntry(hd) && hd.type !== 'symlink') return;
    const parent = await parents.get(parts.slice(0, -1));
    const name = parts.at(-1)!;
    const existing = await lstatAt(parent, name);
    if (existing) await removeAt(parent, name, { swapped: 0 });
    if (hd.type === 'symlink') {
      await symlink(hd.linkname ?? '', at(parent, name));
      if (jail.owner) await lchown(at(parent, name), jail.owner.uid, jail.owner.gid).catch(() => undefined);
      if (hd.mtime) await lutimes(at(parent, name), hd.mtime, hd.mtime).catch(() => undefined);
      return;
    }
    await writeFile(parent, name, hd, content, jail);
  }).finally(() => parents.close());
  dirs.sort((a, b) => b.parts.length - a.parts.length);
  for (const { parts, mode, mtime } of dirs) {
    const dir = await jail.walk(parts, false).catch(() => null); // replaced by a later entry
    if (!dir) continue;
    try {
      await dir.chmod(mode);
      if (mtime) await dir.utimes(mtime, mtime); // futimes: the descriptor, never a link
    } finally {
      await closeQuietly(dir);
    }
  }
}

/**
 * The directory the last entries were written into, kept open: an archive lists a directory's
 * files one after another, so each is not a new descriptor walk from the root. The directory was
 * reached through the jail's walk; an entry that replaces it or a directory above it (a file of
 * that name) drops it.
 */
class ParentCache {
  private key: string | null = null;
  private dir: FileHandle | null = null;

  constructor(private readonly jail: Jail) {}

  async get(parts: string[]): Promise<FileHandle> {
    const key = parts.join('/');
    if (this.dir && this.key === key) return this.dir;
    await this.close();
    this.dir = await this.jail.walk(parts, true);
    this.key = key;
    return this.dir;
  }

  /** An entry named `name` is about to replace whatever is there. */
  replacing(name: string): Promise<void> {
    if (this.key !== null && (this.key === name || this.key.startsWith(`${name}/`))) return this.close();
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.dir) await closeQuietly(this.dir);
    this.dir = null;
    this.key = null;
  }
}

async function writeFile(
  parent: FileHandle,
  name: string,
  hd: Entry,
  content: Content,
  jail: Jail,
): Promise<void> {
  const mode = entryMode(hd.mode ?? 0o644);
  let out: FileHandle;
  try {
    out = await open(at(parent, name), CREATE_FLAGS, mode & 0o777);
  } catch (err) {
    throw fromOs(err, name);
  }
  try {
    await pipeline(
      content,
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          out.write(chunk).then(() => cb(), cb);
        },
      }),
    );
    if (jail.owner) await out.chown(jail.owner.uid, jail.owner.gid);
    await out.chmod(mode); // after chown, which would clear set-id bits (there are none to keep)
    if (hd.mtime) await out.utimes(hd.mtime, hd.mtime); // futimes: the descriptor, never a link
  } catch (err) {
    await closeQuietly(out);
    await unlink(at(parent, name)).catch(() => undefined);
    throw err instanceof FileError ? err : fromOs(err, name);
  }
  await out.close();
}
