import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { CREATE_FLAGS, READ_FLAGS, at, closeQuietly, lstatAt } from './at.ts';
import { FileError, fromOs } from './errors.ts';
import { stagedKey } from './disk-usage.ts';
import type { Jail } from './jail.ts';

/** Temporary names start with this (hidden in listings of most tools). */
export const STAGED_PREFIX = '.talon-upload-';

/** What may be replaced by a write: nothing, or a regular file (never a link, a directory, a FIFO). */
function checkReplaceable(st: Stats | null, what: string): void {
  if (!st) return;
  if (st.isSymbolicLink()) throw new FileError('outside_root', `${what} is a symlink`);
  if (st.isDirectory()) throw new FileError('is_directory', what);
  if (!st.isFile()) throw new FileError('bad_type', `${what} is not a regular file`);
}

/**
 * A file received in pieces (an upload, an editor save) that must never be seen half-written and
 * never be held in memory: the bytes go to a new temporary file beside the target (O_EXCL,
 * O_NOFOLLOW, in a directory reached by the jail's descriptor walk), and `commit` renames it over
 * the target in one step. `discard` removes the temporary file; callers call it on every failure
 * (a refused limit, a client that went away).
 *
 * Between `close` and `commit` no descriptor is held (an upload of many files must not use one per
 * file): `commit` and `discard` walk to the directory again through the jail, and `commit` checks
 * that the temporary name still holds the file written (same inode) before renaming it.
 */
export class StagedFile {
  private written = 0;
  private handle: FileHandle | null;
  private done = false;

  private constructor(
    /** Size of the file this one will replace, when the staging began (0 when there was none). */
    readonly replaces: number,
    private readonly jail: Jail,
    private readonly parent: readonly string[],
    private readonly name: string,
    private readonly temp: string,
    private readonly ino: number,
    /** The temporary file's inode as the disk-usage walk knows it (`stagedKey`). */
    readonly key: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }

  private get what(): string {
    return [...this.parent, this.name].join('/');
  }

  /**
   * Start a file for the cleaned components `parts` (missing parents are created). The target is
   * checked first (a directory or a link there refuses before anything is written).
   */
  static async create(jail: Jail, parts: readonly string[]): Promise<StagedFile> {
    const what = parts.join('/');
    if (parts.length === 0) throw new FileError('is_directory', 'the server root');
    const parent = parts.slice(0, -1);
    const name = parts.at(-1)!;
    const dir = await jail.walk(parent, true);
    try {
      const existing = await lstatAt(dir, name);
      checkReplaceable(existing, what);
      const temp = `${STAGED_PREFIX}${randomBytes(8).toString('hex')}`;
      let handle: FileHandle;
      try {
        handle = await open(at(dir, temp), CREATE_FLAGS, 0o644);
      } catch (err) {
        throw fromOs(err, what);
      }
      try {
        await handle.chmod(0o644); // whatever the umask
        if (jail.owner) await handle.chown(jail.owner.uid, jail.owner.gid);
        const st = await handle.stat();
        return new StagedFile(existing?.size ?? 0, jail, parent, name, temp, st.ino, stagedKey(st), handle);
      } catch (err) {
        await closeQuietly(handle);
        await unlink(at(dir, temp)).catch(() => undefined);
        throw err;
      }
    } finally {
      await closeQuietly(dir);
    }
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.handle) throw new Error('staged file already closed');
    for (let off = 0; off < chunk.length;) {
      off += (await this.handle.write(chunk, off, chunk.length - off)).bytesWritten;
    }
    this.written += chunk.length;
  }

  /** All bytes are written: let go of the descriptor until `commit`. */
  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await h.close();
  }

  /**
   * Put the file in place of the target. `check(oldSize)` runs first (quota) and may throw; the
   * target is looked at again (it may have become a directory or a link meanwhile). An existing
   * file's permission bits are kept. Returns the size the target had before.
   */
  async commit(
    check: (oldSize: number) => void | Promise<void> = () => undefined,
  ): Promise<{ oldSize: number }> {
    try {
      await this.close();
      const dir = await this.jail.walk(this.parent, false);
      try {
        const before = await lstatAt(dir, this.name);
        checkReplaceable(before, this.what);
        await check(before?.size ?? 0);
        let h: FileHandle;
        try {
          h = await open(at(dir, this.temp), READ_FLAGS);
        } catch (err) {
          throw fromOs(err, this.what);
        }
        try {
          const st = await h.stat();
          if (!st.isFile() || st.ino !== this.ino)
            throw new FileError('not_found', `${this.what}: upload replaced`);
          if (before) await h.chmod(before.mode & 0o7777); // fchmod: the file itself, never a link
        } finally {
          await closeQuietly(h);
        }
        try {
          // rename(2) replaces a regular file atomically and never follows a link at the target.
          await rename(at(dir, this.temp), at(dir, this.name));
        } catch (err) {
          throw fromOs(err, this.what);
        }
        this.done = true;
        return { oldSize: before?.size ?? 0 };
      } finally {
        await closeQuietly(dir);
      }
    } finally {
      await this.discard();
    }
  }

  /** Remove the temporary file (after a failure); harmless after `commit`. */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    if (this.done) return;
    this.done = true;
    try {
      const dir = await this.jail.walk(this.parent, false);
      try {
        await unlink(at(dir, this.temp)).catch(() => undefined);
      } finally {
        await closeQuietly(dir);
      }
    } catch {
      // the directory itself is gone: so is the temporary file
    }
  }
}
