import type { Stats } from 'node:fs';
import { lchown, open, readdir, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { FileError, errnoOf, fromOs } from './errors.ts';
import { DIR_FLAGS, READ_FLAGS, at, closeQuietly, lstatAt, self } from './at.ts';

/**
 * Walks of a whole tree below an open directory, by descriptor only (the ownership pass, disk
 * usage, removal). Every directory is entered with open(O_DIRECTORY|O_NOFOLLOW) relative to its
 * parent's descriptor and listed through its own descriptor, so a directory swapped for a symlink
 * between the lstat and the open is refused by the kernel (ELOOP/ENOTDIR), never followed: the
 * server user cannot point a walk of the root daemon at host files (1.0.0-beta.8, CVE-2024-27102).
 */

/** What a walk met: `swapped` counts entries that changed type between the lstat and the open. */
export interface WalkReport {
  swapped: number;
}

export interface Owner {
  uid: number;
  gid: number;
}

/** Attempts on one entry that keeps changing type under a removal before it gives up. */
const MAX_ATTEMPTS = 16;

/** Entries of the directory open as `dir`; a directory removed meanwhile has none. */
async function names(dir: FileHandle): Promise<string[]> {
  try {
    return await readdir(self(dir));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw err;
  }
}

/** open(2) of `name` in `dir`, or null (counted) when it is no longer what lstat saw. */
async function openAt(
  dir: FileHandle,
  name: string,
  flags: number,
  r: WalkReport,
): Promise<FileHandle | null> {
  try {
    return await open(at(dir, name), flags);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENXIO') {
      r.swapped++;
      return null;
    }
    if (code === 'ENOENT') return null;
    throw err;
  }
}

const differs = (st: Stats, o: Owner) => st.uid !== o.uid || st.gid !== o.gid;

/**
 * Give everything below `dir` (and `dir`) to `owner`. Directories and regular files are changed
 * through their own descriptor (fchown) after an fstat; anything else (symlinks, FIFOs, sockets)
 * with lchown relative to the parent's descriptor, which never follows a final link. A regular file
 * with more than one link that the owner does not have already is left alone: it may be a hard link
 * to a host file (where fs.protected_hardlinks is off).
 */
export async function chownTree(dir: FileHandle, owner: Owner, r: WalkReport): Promise<void> {
  if (differs(await dir.stat(), owner)) await dir.chown(owner.uid, owner.gid);
  for (const name of await names(dir)) {
    const st = await lstatAt(dir, name);
    if (!st) continue;
    if (st.isDirectory() || st.isFile()) {
      const h = await openAt(dir, name, st.isDirectory() ? DIR_FLAGS : READ_FLAGS, r);
      if (!h) continue;
      try {
        const fst = await h.stat();
        if (fst.isDirectory()) await chownTree(h, owner, r);
        else if (fst.isFile() && differs(fst, owner) && fst.nlink === 1) await h.chown(owner.uid, owner.gid);
      } finally {
        await closeQuietly(h);
      }
    } else if (differs(st, owner)) {
      await lchown(at(dir, name), owner.uid, owner.gid).catch((err: unknown) => {
        if (errnoOf(err) !== 'ENOENT') throw err;
      });
    }
  }
}

/**
 * Bytes of the regular files below `dir` (links are neither followed nor counted); a file `skip`
 * accepts is left out (a staged upload its writer counts already).
 */
export async function sizeOfTree(
  dir: FileHandle,
  r: WalkReport,
  skip: (st: Stats) => boolean = () => false,
): Promise<number> {
  let total = 0;
  for (const name of await names(dir)) {
    const st = await lstatAt(dir, name).catch(() => null);
    if (!st) continue;
    if (st.isFile()) total += skip(st) ? 0 : st.size;
    else if (st.isDirectory()) {
      const sub = await openAt(dir, name, DIR_FLAGS, r).catch(() => null);
      if (!sub) continue;
      try {
        total += await sizeOfTree(sub, r, skip);
      } catch {
        // unreadable: count what we can
      } finally {
        await closeQuietly(sub);
      }
    }
  }
  return total;
}

/** Empty the directory open as `dir`; returns the bytes of regular files removed. */
export async function emptyTree(dir: FileHandle, r: WalkReport): Promise<number> {
  let freed = 0;
  for (const name of await names(dir)) freed += await removeAt(dir, name, r);
  return freed;
}

/**
 * Remove `name` in `dir` with everything below it: a link is removed as a link, a directory is
 * emptied through its own descriptor first. An entry that changes type meanwhile is looked at
 * again; a missing one is no error. Returns the bytes of regular files removed.
 */
export async function removeAt(dir: FileHandle, name: string, r: WalkReport): Promise<number> {
  let freed = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const st = await lstatAt(dir, name);
    if (!st) return freed;
    if (!st.isDirectory()) {
      try {
        await unlink(at(dir, name));
        return freed + (st.isFile() ? st.size : 0);
      } catch (err) {
        const code = errnoOf(err);
        if (code === 'ENOENT') return freed;
        if (code !== 'EISDIR' && code !== 'EPERM') throw fromOs(err, name);
        r.swapped++; // became a directory: look again
        continue;
      }
    }
    const sub = await openAt(dir, name, DIR_FLAGS, r);
    if (!sub) continue; // swapped for a link (or gone): look again
    try {
      freed += await emptyTree(sub, r);
    } finally {
      await closeQuietly(sub);
    }
    try {
      await rmdir(at(dir, name));
      return freed;
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ENOENT') return freed;
      if (code === 'ENOTDIR') r.swapped++;
      else if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw fromOs(err, name);
      // refilled or swapped meanwhile: once more
    }
  }
  throw new FileError('not_found', `${name} keeps changing during removal`);
}
