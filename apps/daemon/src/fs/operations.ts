import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FileError, errnoOf, fromOs } from './errors.ts';
import { rfc3339 } from './file-object.ts';
import type { Jail } from './jail.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
export const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Opens files and directories alike without following a final symlink or blocking on a FIFO. */
const NOFOLLOW_ANY = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
export const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK;

/** `<name>` inside the directory open as `dir`, resolved by the kernel from the descriptor. */
export function at(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

export async function closeQuietly(h: FileHandle): Promise<void> {
  await h.close().catch(() => undefined);
}

/** A path below the root given as `root` + `file` (the usual Wings request shape), as components. */
export function joined(jail: Jail, root: string, file: string): string[] {
  return jail.parts(path.posix.join('/', root, file));
}

/** The parent directory of `parts` (opened; the caller closes it) and the final name. */
export async function parentOf(
  jail: Jail,
  parts: readonly string[],
  create: boolean,
): Promise<{ dir: FileHandle; name: string }> {
  if (parts.length === 0) throw new FileError('outside_root', 'the server root itself');
  const dir = await jail.walk(parts.slice(0, -1), create);
  return { dir, name: parts.at(-1)! };
}

/** lstat relative to a descriptor, null when missing. */
export async function lstatAt(dir: FileHandle, name: string): Promise<Stats | null> {
  try {
    return await lstat(at(dir, name));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return null;
    throw fromOs(err, name);
  }
}

/** Open the parent, or null when a component on the way does not exist. */
async function parentIfExists(
  jail: Jail,
  parts: readonly string[],
): Promise<{ dir: FileHandle; name: string } | null> {
  try {
    return await parentOf(jail, parts, false);
  } catch (err) {
    if (err instanceof FileError && err.kind === 'not_found') return null;
    throw err;
  }
}

export class DestinationExists extends Error {}

/**
 * Rename `from` to `to` (both components below the root, never the root itself). A missing source
 * is skipped (false); an existing destination is refused; missing destination parents are created.
 * rename(2) never follows a final symlink, so a link is moved as itself.
 */
export async function renameEntry(jail: Jail, from: string[], to: string[]): Promise<boolean> {
  if (from.length === 0 || to.length === 0) throw new FileError('outside_root', 'renaming the server root');
  const src = await parentIfExists(jail, from);
  if (!src) return false;
  try {
    if (!(await lstatAt(src.dir, src.name))) return false;
    const dst = await parentOf(jail, to, true);
    try {
      if (await lstatAt(dst.dir, dst.name)) throw new DestinationExists(to.join('/'));
      try {
        await rename(at(src.dir, src.name), at(dst.dir, dst.name));
      } catch (err) {
        if (errnoOf(err) === 'ENOENT') return false;
        throw fromOs(err, to.join('/'));
      }
      return true;
    } finally {
      await closeQuietly(dst.dir);
    }
  } finally {
    await closeQuietly(src.dir);
  }
}

/** `name` split as Wings does for copies: `.tar.<x>` counts as one extension. */
export function splitExtension(name: string): [string, string] {
  const tar = /\.tar\.[^./]+$/.exec(name);
  if (tar && tar.index > 0) return [name.slice(0, tar.index), tar[0]];
  const ext = path.posix.extname(name);
  return [name.slice(0, name.length - ext.length), ext];
}

/** The names a copy of `name` may take, in order: ` copy`, ` copy 1` … ` copy 50`, then a timestamp. */
export function copyNames(name: string, now = new Date()): string[] {
  const [base, ext] = splitExtension(name);
  const out = [`${base} copy${ext}`];
  for (let i = 1; i <= 50; i++) out.push(`${base} copy ${i}${ext}`);
  out.push(`${base} copy.${rfc3339(now)}${ext}`);
  return out;
}

/**
 * Copy a regular file next to itself (protocol §2.2 `copy`). The source is opened with O_NOFOLLOW
 * (a link is refused); the copy is created O_EXCL with the source's mode and given to the owner.
 * `check(size)` runs before anything is created (quota). Returns the new name and its size.
 */
export async function copyFile(
  jail: Jail,
  parts: readonly string[],
  check: (size: number) => void | Promise<void>,
): Promise<{ name: string; size: number }> {
  const { handle, stat } = await jail.openRead(parts.join('/'));
  try {
    await check(stat.size);
    const dir = await jail.walk(parts.slice(0, -1), false);
    try {
      for (const candidate of copyNames(parts.at(-1)!)) {
        let out: FileHandle;
        try {
          out = await open(at(dir, candidate), CREATE_FLAGS, stat.mode & 0o7777);
        } catch (err) {
          if (errnoOf(err) === 'EEXIST') continue;
          throw fromOs(err, candidate);
        }
        try {
          await out.chmod(stat.mode & 0o7777);
          if (jail.owner) await out.chown(jail.owner.uid, jail.owner.gid);
          const buf = Buffer.alloc(64 * 1024);
          let pos = 0;
          while (pos < stat.size) {
            const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, stat.size - pos), pos);
            if (bytesRead === 0) break;
            for (let off = 0; off < bytesRead;) {
              off += (await out.write(buf, off, bytesRead - off, pos + off)).bytesWritten;
            }
            pos += bytesRead;
          }
          return { name: candidate, size: pos };
        } finally {
          await closeQuietly(out);
        }
      }
      throw new FileError('exists', 'no free name for the copy');
    } finally {
      await closeQuietly(dir);
    }
  } finally {
    await closeQuietly(handle);
  }
}

/** Create the directory `parts` and its missing parents (0755, owner). A file in the way is an error. */
export async function createDirectory(jail: Jail, parts: readonly string[]): Promise<void> {
  const dir = await jail.walk(parts, true);
  await closeQuietly(dir);
}

/**
 * Delete `parts` (recursively for directories). Missing entries are ignored; links are removed, never
 * followed; the walk below a directory goes by descriptors opened with O_NOFOLLOW, so a directory
 * swapped for a link midway cannot lead anywhere else. Returns the bytes of regular files removed.
 */
export async function deleteEntry(jail: Jail, parts: readonly string[]): Promise<number> {
  if (parts.length === 0) throw new FileError('outside_root', 'deleting the server root');
  const p = await parentIfExists(jail, parts);
  if (!p) return 0;
  try {
    return await removeAt(p.dir, p.name);
  } finally {
    await closeQuietly(p.dir);
  }
}

async function removeAt(dir: FileHandle, name: string): Promise<number> {
  const st = await lstatAt(dir, name);
  if (!st) return 0;
  if (!st.isDirectory()) {
    try {
      await unlink(at(dir, name));
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return 0;
      throw fromOs(err, name);
    }
    return st.isFile() ? st.size : 0;
  }
  let sub: FileHandle;
  try {
    sub = await open(at(dir, name), DIR_FLAGS);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 0;
    throw fromOs(err, name); // swapped for a link: ELOOP, refused
  }
  let freed = 0;
  try {
    for (const child of await readdir(`/proc/self/fd/${sub.fd}`)) freed += await removeAt(sub, child);
  } finally {
    await closeQuietly(sub);
  }
  try {
    await rmdir(at(dir, name));
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') throw fromOs(err, name);
  }
  return freed;
}

/** An octal mode string as Wings accepts it (`755`, `0644`), or null. */
export function parseMode(mode: string): number | null {
  return /^[0-7]{1,4}$/.test(mode) ? parseInt(mode, 8) : null;
}

/**
 * chmod `parts` without ever following a link (GHSA-rhq6-9rgh-v45c): the entry is opened with
 * O_NOFOLLOW and changed through its descriptor (fchmod). A symlink is refused; missing entries are
 * ignored (false).
 */
export async function chmodEntry(jail: Jail, parts: readonly string[], mode: number): Promise<boolean> {
  if (parts.length === 0) throw new FileError('outside_root', 'chmod of the server root');
  const p = await parentIfExists(jail, parts);
  if (!p) return false;
  try {
    const st = await lstatAt(p.dir, p.name);
    if (!st) return false;
    if (st.isSymbolicLink()) throw new FileError('outside_root', `${parts.join('/')} is a symlink`);
    let h: FileHandle;
    try {
      h = await open(at(p.dir, p.name), NOFOLLOW_ANY);
    } catch (err) {
      throw fromOs(err, parts.join('/'));
    }
    try {
      await h.chmod(mode);
    } finally {
      await closeQuietly(h);
    }
    return true;
  } finally {
    await closeQuietly(p.dir);
  }
}
