import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { CREATE_FLAGS, at, closeQuietly, lstatAt } from './at.ts';
import { FileError, fromOs } from './errors.ts';
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
 * O_NOFOLLOW, through the jail's descriptor walk), and `commit` renames it over the target in one
 * step, relative to the same directory descriptor. `discard` removes the temporary file; callers
 * call it on every failure (a refused limit, a client that went away).
 */
export class StagedFile {
  private written = 0;
  private done = false;

  private constructor(
    /** Size of the file this one will replace, when the staging began (0 when there was none). */
    readonly replaces: number,
    private readonly dir: FileHandle,
    private readonly temp: string,
    private readonly handle: FileHandle,
    private readonly name: string,
    private readonly what: string,
  ) {}

  /**
   * Start a file for the cleaned components `parts` (missing parents are created). The target is
   * checked first (a directory or a link there refuses before anything is written).
   */
  static async create(jail: Jail, parts: readonly string[]): Promise<StagedFile> {
    const what = parts.join('/');
    if (parts.length === 0) throw new FileError('is_directory', 'the server root');
    const dir = await jail.walk(parts.slice(0, -1), true);
    try {
      const name = parts.at(-1)!;
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
      } catch (err) {
        await closeQuietly(handle);
        await unlink(at(dir, temp)).catch(() => undefined);
        throw err;
      }
      return new StagedFile(existing?.size ?? 0, dir, temp, handle, name, what);
    } catch (err) {
      await closeQuietly(dir);
      throw err;
    }
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written;
  }

  async write(chunk: Uint8Array): Promise<void> {
    for (let off = 0; off < chunk.length;) {
      off += (await this.handle.write(chunk, off, chunk.length - off)).bytesWritten;
    }
    this.written += chunk.length;
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
      const before = await lstatAt(this.dir, this.name);
      checkReplaceable(before, this.what);
      await check(before?.size ?? 0);
      if (before) await this.handle.chmod(before.mode & 0o7777);
      await this.handle.close();
      try {
        // rename(2) replaces a regular file atomically and never follows a link at the target.
        await rename(at(this.dir, this.temp), at(this.dir, this.name));
      } catch (err) {
        throw fromOs(err, this.what);
      }
      this.done = true;
      return { oldSize: before?.size ?? 0 };
    } finally {
      await this.discard();
    }
  }

  /** Remove the temporary file (after a failure); harmless after `commit`. */
  async discard(): Promise<void> {
    await closeQuietly(this.handle);
    if (!this.done) {
      this.done = true;
      await unlink(at(this.dir, this.temp)).catch(() => undefined);
    }
    await closeQuietly(this.dir);
  }
}
