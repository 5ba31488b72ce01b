import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { CREATE_FLAGS, at, closeQuietly } from './at.ts';
import { FileError, errnoOf, fromOs } from './errors.ts';
import { rfc3339 } from './file-object.ts';
import type { Jail } from './jail.ts';

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
 * (a link is refused); the copy is created O_EXCL with the source's permission bits (never set-id
 * ones) and given to the owner. `check(size)` runs before anything is created (quota), `admit`
 * on each name before it is taken (the denylist; may throw). Returns the new name and its size.
 */
export async function copyFile(
  jail: Jail,
  parts: readonly string[],
  check: (size: number) => void | Promise<void>,
  admit: (parts: readonly string[]) => void,
): Promise<{ name: string; size: number }> {
  const { handle, stat } = await jail.openRead(parts.join('/'));
  try {
    await check(stat.size);
    const mode = stat.mode & 0o1777;
    const dir = await jail.walk(parts.slice(0, -1), false);
    try {
      for (const candidate of copyNames(parts.at(-1)!)) {
        admit([...parts.slice(0, -1), candidate]);
        let out: FileHandle;
        try {
          out = await open(at(dir, candidate), CREATE_FLAGS, mode);
        } catch (err) {
          if (errnoOf(err) === 'EEXIST') continue;
          throw fromOs(err, candidate);
        }
        try {
          await out.chmod(mode);
          if (jail.owner) await out.chown(jail.owner.uid, jail.owner.gid);
          return { name: candidate, size: await copyBytes(handle, out, stat.size) };
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

/** At most `size` bytes from `src` to `dst` (a file that grows meanwhile is cut at its size). */
async function copyBytes(src: FileHandle, dst: FileHandle, size: number): Promise<number> {
  const buf = Buffer.alloc(64 * 1024);
  let pos = 0;
  while (pos < size) {
    const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    for (let off = 0; off < bytesRead;) {
      off += (await dst.write(buf, off, bytesRead - off, pos + off)).bytesWritten;
    }
    pos += bytesRead;
  }
  return pos;
}
