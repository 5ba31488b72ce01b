import { constants, type Stats } from 'node:fs';
import { lstat, type FileHandle } from 'node:fs/promises';
import { errnoOf, fromOs } from './errors.ts';

// Node has no openat(2): every step below an open directory goes through
// `/proc/self/fd/<fd>/<name>`, which the kernel resolves from the descriptor, not by path.

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
// libuv adds O_CLOEXEC to every open on Linux (Node does not export the constant).
/** A directory, never through a final symlink. */
export const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** A file to read, never through a final symlink; O_NONBLOCK: a FIFO never waits for a writer. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
export const WRITE_FLAGS = O_WRONLY | O_NOFOLLOW | O_NONBLOCK;
/** A new file only: O_EXCL never follows a symlink (a dangling one gives EEXIST). */
export const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK;

/** `<name>` inside the directory open as `dir`. */
export function at(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

/** The directory open as `dir` itself (for readdir). */
export function self(dir: FileHandle): string {
  return `/proc/self/fd/${dir.fd}`;
}

export async function closeQuietly(h: FileHandle): Promise<void> {
  await h.close().catch(() => undefined);
}

/** lstat of `name` in `dir`, or null when it is missing. */
export async function lstatAt(dir: FileHandle, name: string): Promise<Stats | null> {
  try {
    return await lstat(at(dir, name));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return null;
    throw fromOs(err, name);
  }
}
