import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import type { DaemonFileObject } from '@talon/shared';

/** Wings' file object (`list-directory`, `compress`, `pull`); its shape is shared with the panel. */
export type FileObject = DaemonFileObject;

// Not in Node's typed constants; the POSIX values.
const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
const S_ISVTX = 0o1000;

/** RFC 3339 in UTC, whole seconds (Go's `time.RFC3339`). */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Go's `fs.FileMode.String()`: type letters in Go's order (`d` dir, `L` symlink, `D` device, `p`
 * FIFO, `S` socket, `u` setuid, `g` setgid, `c` char device, `t` sticky), `-` when there is none,
 * then `rwxrwxrwx`.
 */
export function goModeString(mode: number): string {
  const fmt = mode & constants.S_IFMT;
  let t = '';
  if (fmt === constants.S_IFDIR) t += 'd';
  if (fmt === constants.S_IFLNK) t += 'L';
  if (fmt === constants.S_IFBLK || fmt === constants.S_IFCHR) t += 'D';
  if (fmt === constants.S_IFIFO) t += 'p';
  if (fmt === constants.S_IFSOCK) t += 'S';
  if (mode & S_ISUID) t += 'u';
  if (mode & S_ISGID) t += 'g';
  if (fmt === constants.S_IFCHR) t += 'c';
  if (mode & S_ISVTX) t += 't';
  const rwx = 'rwxrwxrwx';
  let perm = '';
  for (let i = 0; i < 9; i++) perm += mode & (1 << (8 - i)) ? rwx[i] : '-';
  return (t || '-') + perm;
}

export function fileObject(name: string, st: Stats, mime: string): FileObject {
  const directory = st.isDirectory();
  return {
    name,
    created: rfc3339(st.ctime),
    modified: rfc3339(st.mtime),
    mode: goModeString(st.mode),
    mode_bits: (st.mode & 0o777).toString(8),
    size: st.size,
    directory,
    file: !directory,
    // Wings computes this from the permission bits and so always sends false; we tell the truth.
    symlink: st.isSymbolicLink(),
    mime,
  };
}

/** Directories first, then by name (code unit order). */
export function sortListing(a: FileObject, b: FileObject): number {
  if (a.directory !== b.directory) return a.directory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
