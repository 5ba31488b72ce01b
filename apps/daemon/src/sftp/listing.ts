import type { Stats } from 'node:fs';
import path from 'node:path';
import { formatModeBits } from '@talon/shared';

export interface SftpAttrs {
  mode: number;
  uid: number;
  gid: number;
  size: number;
  atime: number;
  mtime: number;
}

/** SFTP attributes of an lstat result (mode keeps the file type bits clients look at). */
export function attrsOf(st: Stats): SftpAttrs {
  return {
    mode: st.mode,
    uid: st.uid,
    gid: st.gid,
    size: st.size,
    atime: Math.floor(st.atimeMs / 1000),
    mtime: Math.floor(st.mtimeMs / 1000),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function typeChar(st: Stats): string {
  if (st.isDirectory()) return 'd';
  if (st.isSymbolicLink()) return 'l';
  if (st.isFIFO()) return 'p';
  if (st.isSocket()) return 's';
  if (st.isCharacterDevice()) return 'c';
  if (st.isBlockDevice()) return 'b';
  return '-';
}

/**
 * The `ls -l` style line clients show (`longname`): type and mode, links, owner, group, size, date
 * (time of day within six months, else the year) and name. Owner and group are shown as
 * `container`, the name servers know their files by.
 */
export function longname(name: string, st: Stats, now = Date.now()): string {
  const d = new Date(st.mtimeMs);
  const recent = Math.abs(now - st.mtimeMs) < 182 * 24 * 3600 * 1000;
  const when = recent
    ? `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`
    : String(d.getUTCFullYear());
  const date = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${when.padStart(5, ' ')}`;
  const mode = `${typeChar(st)}${formatModeBits(st.mode & 0o777)}`;
  return `${mode} ${String(st.nlink).padStart(4)} container container ${String(st.size).padStart(8)} ${date} ${name}`;
}

/** A client path cleaned lexically against `/` (the server root): what REALPATH answers. */
export function sftpClean(p: string): string {
  return path.posix.resolve('/', p || '.');
}
