import { constants, type Stats } from 'node:fs';
import {
  lchown,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  rename,
  rmdir,
  symlink,
  type FileHandle,
} from 'node:fs/promises';
import { DIR_FLAGS, READ_FLAGS, WRITE_FLAGS, at, closeQuietly, lstatAt, self } from './at.ts';
import { FileError, errnoOf, fromOs } from './errors.ts';
import { sniffMime } from './mime.ts';
import { cleanPath } from './paths.ts';
import { insideScope, type FolderScope } from '@talon/shared/files/scope';
import { chownTree, emptyTree, removeAt, sizeOfTree, type Owner, type WalkReport } from './tree.ts';

const { O_CREAT, O_EXCL } = constants;
/** Symlinks followed in one resolution, as the kernel's MAXSYMLINKS. */
const MAX_LINKS = 40;
const SNIFF_BYTES = 512;

export type { Owner, WalkReport };

export interface DirEntry {
  name: string;
  stat: Stats;
  mime: string;
}

/**
 * A server's files, reachable only through this class. Node has no openat(2), so every step is
 * taken relative to an open directory descriptor through `/proc/self/fd/<fd>/<name>`:
 *
 * 1. the user path is cleaned lexically (`paths.ts`); a path above the root is refused untouched;
 * 2. the root is opened (O_DIRECTORY|O_NOFOLLOW) and each directory component is opened with
 *    O_DIRECTORY|O_NOFOLLOW relative to the previous descriptor. A symlink met there is resolved by
 *    the walker itself: relative targets are walked component by component on the same descriptor
 *    stack (`..` pops, never above the root); absolute targets, escapes and more than 40 links are
 *    refused (`outside_root`);
 * 3. the final component is lstat'ed and opened with O_NOFOLLOW relative to its parent's descriptor:
 *    a symlink there is never read or written.
 *
 * A symlink swapped in at any moment can therefore not lead outside the root: nothing is resolved
 * by name from the root again after it was checked. Missing directories are created one by one
 * with mkdir relative to the parent descriptor (mkdir never follows a final symlink), so a dangling
 * symlink to the outside can never make anything appear outside the root.
 */
export class Jail {
  constructor(
    readonly root: string,
    /** Owner of created files and directories (when the daemon runs as root), else null. */
    readonly owner: Owner | null = null,
    /**
     * Folders a walk that followed a symlink must end inside (a folder-scoped subuser's, our
     * extension); null: any directory below the root. Callers check the requested path itself;
     * this checks where the links really led, on the descriptors the operation then uses.
     */
    readonly scope: FolderScope = null,
  ) {}

  /** The cleaned components of a user path (lexical only). */
  parts(userPath: string): string[] {
    return cleanPath(this.root, userPath);
  }

  /** lstat of the final component, or null when it (or a parent) does not exist. */
  async lstat(userPath: string): Promise<Stats | null> {
    const parts = this.parts(userPath);
    if (parts.length === 0) {
      const dir = await this.walk([], false);
      try {
        return await dir.stat();
      } finally {
        await closeQuietly(dir);
      }
    }
    const found = await this.inExistingParent(userPath, async (dir, name) => {
      try {
        return await lstat(at(dir, name));
      } catch (err) {
        if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return null;
        throw fromOs(err, userPath);
      }
    });
    return found ?? null;
  }

  /**
   * Open a regular file for reading. The caller owns the handle (and must close it). Directories,
   * symlinks, FIFOs, sockets and devices are refused without blocking.
   */
  async openRead(userPath: string): Promise<{ handle: FileHandle; stat: Stats; name: string }> {
    const parts = this.parts(userPath);
    if (parts.length === 0) throw new FileError('is_directory', 'the server root');
    const name = parts.at(-1)!;
    const dir = await this.walk(parts.slice(0, -1), false);
    try {
      const p = at(dir, name);
      let st: Stats;
      try {
        st = await lstat(p);
      } catch (err) {
        throw fromOs(err, userPath);
      }
      checkRegular(st, userPath);
      let handle: FileHandle;
      try {
        handle = await open(p, READ_FLAGS);
      } catch (err) {
        throw fromOs(err, userPath);
      }
      try {
        const fst = await handle.stat();
        checkRegular(fst, userPath);
        return { handle, stat: fst, name };
      } catch (err) {
        await closeQuietly(handle);
        throw err;
      }
    } finally {
      await closeQuietly(dir);
    }
  }

  /**
   * Create or replace a regular file with `data`: missing parents are created (0755), a new file
   * gets 0644; both are given to the owner. `check(oldSize)` runs before anything is created or
   * changed (quota); it may throw to refuse. Returns the size the file had before.
   */
  async writeFile(
    userPath: string,
    data: Uint8Array,
    check: (oldSize: number) => void | Promise<void> = () => undefined,
  ): Promise<{ oldSize: number; created: boolean }> {
    const { handle, oldSize, created } = await this.openWrite(userPath, check);
    try {
      for (let off = 0; off < data.length;) {
        off += (await handle.write(data, off, data.length - off, off)).bytesWritten;
      }
      return { oldSize, created };
    } finally {
      await closeQuietly(handle);
    }
  }

  /**
   * Create or truncate a regular file and return it open for writing (the caller closes it):
   * missing parents are created (0755), a new file gets 0644; both are given to the owner.
   * `check(oldSize)` runs before anything is created or changed and may throw to refuse.
   */
  async openWrite(
    userPath: string,
    check: (oldSize: number) => void | Promise<void> = () => undefined,
  ): Promise<{ handle: FileHandle; oldSize: number; created: boolean }> {
    const parts = this.parts(userPath);
    if (parts.length === 0) throw new FileError('is_directory', 'the server root');
    // Look first, change nothing: a refused write must leave the disk as it was.
    const before = await this.lstat(userPath);
    if (before) checkRegular(before, userPath);
    await check(before?.size ?? 0);

    const name = parts.at(-1)!;
    const dir = await this.walk(parts.slice(0, -1), true);
    try {
      const p = at(dir, name);
      let created = true;
      let handle: FileHandle;
      try {
        // O_EXCL: never follows a symlink (a dangling one gives EEXIST, then ELOOP below).
        handle = await open(p, WRITE_FLAGS | O_CREAT | O_EXCL, 0o644);
      } catch (err) {
        if (errnoOf(err) !== 'EEXIST') throw fromOs(err, userPath);
        created = false;
        try {
          handle = await open(p, WRITE_FLAGS);
        } catch (err2) {
          throw fromOs(err2, userPath);
        }
      }
      try {
        const st = await handle.stat();
        checkRegular(st, userPath);
        if (created) await handle.chmod(0o644); // whatever the umask
        if (this.owner && (st.uid !== this.owner.uid || st.gid !== this.owner.gid)) {
          await handle.chown(this.owner.uid, this.owner.gid);
        }
        await handle.truncate(0);
        return { handle, oldSize: st.size, created };
      } catch (err) {
        await closeQuietly(handle);
        throw err;
      }
    } finally {
      await closeQuietly(dir);
    }
  }

  /**
   * Create a directory and every missing parent (0755, given to the owner). A symlink on the way
   * is followed only inside the root, so a dangling link to the outside creates nothing there.
   */
  async mkdirAll(userPath: string): Promise<void> {
    await closeQuietly(await this.walk(this.parts(userPath), true));
  }

  /**
   * Remove a file, link or directory with everything in it, walking by descriptor: links are
   * removed as links, never followed, and a directory swapped for a link midway is not entered.
   * `kind` refuses the other kind of entry (SFTP's REMOVE and RMDIR). Returns null when nothing
   * was there, else the bytes of regular files removed.
   */
  async removeTree(
    userPath: string,
    kind: 'file' | 'directory' | 'any' = 'any',
  ): Promise<{ freed: number; swapped: number } | null> {
    return this.inExistingParent(userPath, async (dir, name) => {
      const st = await lstatAt(dir, name);
      if (!st) return null;
      if (kind === 'file' && st.isDirectory()) throw new FileError('is_directory', userPath);
      if (kind === 'directory' && !st.isDirectory())
        throw new FileError('bad_type', `${userPath} is not a directory`);
      const r: WalkReport = { swapped: 0 };
      return { freed: await removeAt(dir, name, r), swapped: r.swapped };
    });
  }

  /**
   * Rename `from` to `to` (both inside the root, never the root itself). A missing source is
   * `false`; an existing destination is never overwritten (`exists`); missing destination parents
   * are created. rename(2) never follows a final link, so a link is moved as itself.
   */
  async rename(from: string, to: string): Promise<boolean> {
    const dst = this.parts(to);
    if (this.parts(from).length === 0 || dst.length === 0) {
      throw new FileError('outside_root', 'renaming the server root');
    }
    const moved = await this.inExistingParent(from, async (srcDir, srcName) => {
      if (!(await lstatAt(srcDir, srcName))) return false;
      const dstDir = await this.walk(dst.slice(0, -1), true);
      try {
        if (await lstatAt(dstDir, dst.at(-1)!)) throw new FileError('exists', to);
        try {
          await rename(at(srcDir, srcName), at(dstDir, dst.at(-1)!));
        } catch (err) {
          if (errnoOf(err) === 'ENOENT') return false;
          throw fromOs(err, `${from} -> ${to}`);
        }
        return true;
      } finally {
        await closeQuietly(dstDir);
      }
    });
    return moved ?? false;
  }

  /**
   * Set the permission bits of a file or directory without ever following a symlink
   * (GHSA-rhq6-9rgh-v45c): a symlink is refused (`outside_root`), the object is opened O_NOFOLLOW
   * and changed through its descriptor. Setuid and setgid bits are refused (`bad_mode`): the
   * daemon runs as root and must never make a set-id program out of a server's file. A missing
   * entry is `false`.
   */
  async chmod(userPath: string, mode: number): Promise<boolean> {
    checkMode(mode);
    if (this.parts(userPath).length === 0) throw new FileError('outside_root', 'chmod of the server root');
    const done = await this.inExistingParent(userPath, async (dir, name) => {
      const st = await lstatAt(dir, name);
      if (!st) return false;
      if (st.isSymbolicLink()) throw new FileError('outside_root', `${userPath} is a symlink`);
      if (!st.isFile() && !st.isDirectory()) throw new FileError('bad_type', `${userPath} is special`);
      let h: FileHandle;
      try {
        h = await open(at(dir, name), st.isDirectory() ? DIR_FLAGS : READ_FLAGS);
      } catch (err) {
        throw fromOs(err, userPath);
      }
      try {
        const fst = await h.stat();
        if (fst.ino !== st.ino || fst.dev !== st.dev) throw new FileError('not_found', `${userPath} changed`);
        await h.chmod(mode);
        return true;
      } finally {
        await closeQuietly(h);
      }
    });
    return done ?? false;
  }

  /**
   * The ownership pass before a start: give the root and everything below it to `owner`, by
   * descriptor, never through a link (1.0.0-beta.8: a directory swapped for a link to `/` must not
   * hand host files to the server's user).
   */
  async chownAll(owner: Owner): Promise<WalkReport> {
    const r: WalkReport = { swapped: 0 };
    const root = await this.walk([], false);
    try {
      await chownTree(root, owner, r);
    } finally {
      await closeQuietly(root);
    }
    return r;
  }

  /**
   * Bytes of the regular files below the root, walking by descriptor (links not followed); files
   * `skip` accepts are left out.
   */
  async usage(skip?: (st: Stats) => boolean): Promise<{ bytes: number; swapped: number }> {
    const r: WalkReport = { swapped: 0 };
    const root = await this.walk([], false);
    try {
      return { bytes: await sizeOfTree(root, r, skip), swapped: r.swapped };
    } finally {
      await closeQuietly(root);
    }
  }

  /**
   * Remove the root and everything in it (a deleted server, an installer's scratch directory whose
   * contents an untrusted script made). The tree is emptied by descriptor; only the root itself,
   * the daemon's own path, is removed by name. A missing root is no error.
   */
  async destroy(): Promise<WalkReport> {
    const r: WalkReport = { swapped: 0 };
    for (let attempt = 0; attempt < 16; attempt++) {
      let root: FileHandle;
      try {
        root = await this.walk([], false);
      } catch (err) {
        if (err instanceof FileError && err.kind === 'not_found') return r;
        throw err;
      }
      try {
        await emptyTree(root, r);
      } finally {
        await closeQuietly(root);
      }
      try {
        await rmdir(this.root);
        return r;
      } catch (err) {
        if (errnoOf(err) === 'ENOENT') return r;
        if (errnoOf(err) !== 'ENOTEMPTY') throw err;
        // something was added meanwhile: empty it again
      }
    }
    throw new FileError('not_found', `${this.root} keeps being refilled`);
  }

  /** Create a symlink at `linkPath` holding `target` as text (the jail never follows it outside). */
  async symlink(target: string, linkPath: string): Promise<void> {
    await this.inParent(linkPath, async (dir, name) => {
      const p = at(dir, name);
      try {
        await symlink(target, p);
      } catch (err) {
        throw fromOs(err, linkPath);
      }
      if (this.owner) await lchown(p, this.owner.uid, this.owner.gid).catch(() => undefined);
    });
  }

  /** The text of a symlink inside the root (not resolved). */
  async readlink(userPath: string): Promise<string> {
    return this.inParent(userPath, async (dir, name) => {
      try {
        return await readlink(at(dir, name));
      } catch (err) {
        if (errnoOf(err) === 'EINVAL') throw new FileError('bad_type', `${userPath} is not a symlink`);
        throw fromOs(err, userPath);
      }
    });
  }

  /** Run `fn` with the open parent directory of a (non-root) user path and the final name. */
  private async inParent<T>(userPath: string, fn: (dir: FileHandle, name: string) => Promise<T>): Promise<T> {
    const parts = this.parts(userPath);
    if (parts.length === 0) throw new FileError('outside_root', 'the server root');
    const dir = await this.walk(parts.slice(0, -1), false);
    try {
      return await fn(dir, parts.at(-1)!);
    } finally {
      await closeQuietly(dir);
    }
  }

  /** As `inParent`, but null when a directory on the way does not exist. */
  private async inExistingParent<T>(
    userPath: string,
    fn: (dir: FileHandle, name: string) => Promise<T>,
  ): Promise<T | null> {
    const parts = this.parts(userPath);
    if (parts.length === 0) throw new FileError('outside_root', 'the server root');
    let dir: FileHandle;
    try {
      dir = await this.walk(parts.slice(0, -1), false);
    } catch (err) {
      if (err instanceof FileError && err.kind === 'not_found') return null;
      throw err;
    }
    try {
      return await fn(dir, parts.at(-1)!);
    } finally {
      await closeQuietly(dir);
    }
  }

  /**
   * The entries of a directory (lstat: symlinks appear as themselves), with a sniffed mime type for
   * regular files. Symlinked directories on the way are followed only inside the root.
   */
  async list(userPath: string): Promise<DirEntry[]> {
    const dir = await this.walk(this.parts(userPath), false);
    try {
      let names: string[];
      try {
        names = await readdir(self(dir));
      } catch (err) {
        throw fromOs(err, userPath);
      }
      const out: DirEntry[] = [];
      const BATCH = 32;
      for (let i = 0; i < names.length; i += BATCH) {
        const batch = await Promise.all(names.slice(i, i + BATCH).map((n) => this.entry(dir, n)));
        for (const e of batch) if (e) out.push(e);
      }
      return out;
    } finally {
      await closeQuietly(dir);
    }
  }

  private async entry(dir: FileHandle, name: string): Promise<DirEntry | null> {
    let stat: Stats;
    try {
      stat = await lstat(at(dir, name));
    } catch {
      return null; // removed since readdir
    }
    let mime = 'application/octet-stream';
    if (stat.isDirectory()) mime = 'inode/directory';
    else if (stat.isFile()) {
      try {
        const h = await open(at(dir, name), READ_FLAGS);
        try {
          if ((await h.stat()).isFile()) {
            const buf = Buffer.alloc(SNIFF_BYTES);
            const { bytesRead } = await h.read(buf, 0, SNIFF_BYTES, 0);
            mime = sniffMime(buf.subarray(0, bytesRead));
          }
        } finally {
          await closeQuietly(h);
        }
      } catch {
        // swapped or unreadable: keep the generic type
      }
    }
    return { name, stat, mime };
  }

  /**
   * Open the directory at `parts` below the root and return its handle (the caller closes it).
   * With `create`, missing directories are made (0755, given to the owner). Public for the other
   * descriptor-based operations (`archive.ts`, `copy.ts`).
   */
  async walk(parts: readonly string[], create: boolean): Promise<FileHandle> {
    let rootHandle: FileHandle;
    try {
      rootHandle = await open(this.root, DIR_FLAGS);
    } catch (err) {
      throw fromOs(err, 'server root');
    }
    // stack[i] was opened as an entry of stack[i - 1], so `..` is a pop and cannot pass stack[0].
    const stack: FileHandle[] = [rootHandle];
    /** names[i] is the entry stack[i + 1] was opened as: the real location reached so far */
    const names: string[] = [];
    const queue = [...parts];
    let links = 0;
    let retries = 0;
    try {
      while (queue.length > 0) {
        const c = queue.shift()!;
        if (c === '' || c === '.') continue;
        if (c === '..') {
          if (stack.length === 1)
            throw new FileError('outside_root', 'a symlink leads above the server root');
          await closeQuietly(stack.pop()!);
          names.pop();
          continue;
        }
        const top = stack.at(-1)!;
        const p = at(top, c);
        try {
          stack.push(await open(p, DIR_FLAGS));
          names.push(c);
          continue;
        } catch (err) {
          const code = errnoOf(err);
          if (code === 'ENOENT' && create) {
            if (++retries > MAX_LINKS) throw new FileError('not_found', `${c} keeps disappearing`);
            if (links > 0) this.checkScope([...names, c]); // nothing is created outside the folders
            await this.mkdirAt(top, c);
            queue.unshift(c); // open what is there now, whatever it is
            continue;
          }
          if (code !== 'ELOOP' && code !== 'ENOTDIR') throw fromOs(err, c);
          let target: string;
          try {
            target = await readlink(p);
          } catch {
            throw fromOs(err, c); // not a symlink: a file where a directory is needed
          }
          if (++links > MAX_LINKS) throw new FileError('outside_root', 'too many levels of symbolic links');
          if (target.startsWith('/'))
            throw new FileError('outside_root', `${c} is a symlink to an absolute path`);
          queue.unshift(...target.split('/'));
        }
      }
      if (links > 0) this.checkScope(names);
      return stack.pop()!;
    } finally {
      for (const h of stack) await closeQuietly(h);
    }
  }

  /** Refuse (`outside_root`) a location a symlink led to when it is outside the jail's folders. */
  private checkScope(names: readonly string[]): void {
    if (!insideScope(this.scope, `/${names.join('/')}`)) {
      throw new FileError('outside_root', 'a symlink leads out of the folders this access may use');
    }
  }

  /** mkdir `name` in `dir` (never follows: an existing symlink there is EEXIST), then fix mode/owner. */
  private async mkdirAt(dir: FileHandle, name: string): Promise<void> {
    try {
      await mkdir(at(dir, name), 0o755);
    } catch (err) {
      if (errnoOf(err) === 'EEXIST') return;
      throw fromOs(err, name);
    }
    let h: FileHandle;
    try {
      h = await open(at(dir, name), DIR_FLAGS);
    } catch {
      return; // replaced meanwhile; the walk opens whatever is there with the same checks
    }
    try {
      await h.chmod(0o755);
      if (this.owner) await h.chown(this.owner.uid, this.owner.gid);
    } finally {
      await closeQuietly(h);
    }
  }
}

function checkRegular(st: Stats, userPath: string): void {
  if (st.isSymbolicLink()) throw new FileError('outside_root', `${userPath} is a symlink`);
  if (st.isDirectory()) throw new FileError('is_directory', userPath);
  if (!st.isFile()) throw new FileError('bad_type', `${userPath} is not a regular file`);
}

/** Setuid and setgid: never set by the daemon on a server's files (sticky is harmless and allowed). */
const SET_ID_BITS = 0o6000;

/** A mode a user asks for (chmod) is refused when it sets setuid or setgid. */
export function checkMode(mode: number): void {
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) throw new FileError('bad_mode', `mode ${mode}`);
  if (mode & SET_ID_BITS) throw new FileError('bad_mode', `mode ${mode.toString(8)} sets setuid or setgid`);
}

/**
 * The mode a file or directory gets from an archive entry (backup restore, extraction): the same
 * rule as `checkMode`, but an archive is not asked, so the set-id bits are dropped, not refused.
 */
export function entryMode(mode: number): number {
  return mode & 0o7777 & ~SET_ID_BITS;
}
