/**
 * POSIX tar (ustar) headers for the backup writer, which writes file contents straight into its
 * compression buffers (no stream of its own in between). A name or link target too long for the
 * ustar fields, or a size beyond their 8 GiB, goes in a pax extended header before the entry
 * (POSIX.1-2001), which GNU tar, bsdtar and tar-stream read.
 */

export type TarType = 'file' | 'directory' | 'symlink';

export interface TarEntry {
  /** Relative name; a directory's ends with `/`. */
  name: string;
  type: TarType;
  size: number;
  mode: number;
  mtime: Date;
  linkname?: string;
}

const BLOCK = 512;
const FLAGS: Record<TarType, string> = { file: '0', directory: '5', symlink: '2' };
/** Largest size the 11 octal digits hold. */
const MAX_OCTAL_SIZE = 0o77777777777;

/** Bytes after an entry's content up to the next 512-byte block. */
export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** The end of an archive: two zero blocks. */
export const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK);

/** The header block(s) of `e`: one ustar block, preceded by a pax header when needed. */
export function encodeHeader(e: TarEntry): Buffer {
  const name = Buffer.from(e.name, 'utf8');
  const link = Buffer.from(e.linkname ?? '', 'utf8');
  const split = splitName(name);
  const pax: [string, string][] = [];
  if (!split) pax.push(['path', e.name]);
  if (link.length > 100) pax.push(['linkpath', e.linkname!]);
  if (e.size > MAX_OCTAL_SIZE) pax.push(['size', String(e.size)]);
  const mtime = Math.max(0, Math.floor(e.mtime.getTime() / 1000));
  const block = ustar({
    prefix: split?.prefix ?? Buffer.alloc(0),
    name: split?.name ?? name.subarray(0, 100),
    type: FLAGS[e.type],
    size: e.size > MAX_OCTAL_SIZE ? 0 : e.size,
    mode: e.mode & 0o7777,
    mtime,
    linkname: link.subarray(0, 100),
  });
  if (pax.length === 0) return block;
  const records = Buffer.from(pax.map(([k, v]) => paxRecord(k, v)).join(''), 'utf8');
  const paxHead = ustar({
    prefix: Buffer.alloc(0),
    name: Buffer.from('PaxHeader', 'utf8'),
    type: 'x',
    size: records.length,
    mode: 0o644,
    mtime,
    linkname: Buffer.alloc(0),
  });
  return Buffer.concat([paxHead, records, Buffer.alloc(padding(records.length)), block]);
}

/** `<length> <key>=<value>\n`, where the length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLen = Buffer.byteLength(body, 'utf8');
  let len = bodyLen + String(bodyLen).length;
  if (String(len).length + bodyLen !== len) len = bodyLen + String(len).length;
  return `${len}${body}`;
}

/** ustar's name (≤ 100 bytes) and prefix (≤ 155 bytes) split at a `/`; null when it cannot be. */
function splitName(name: Buffer): { prefix: Buffer; name: Buffer } | null {
  if (name.length <= 100) return { prefix: Buffer.alloc(0), name };
  if (name.length > 256) return null;
  // The last `/` that leaves at most 155 bytes before it and 1–100 after it (a directory's own
  // trailing `/` is part of the name).
  for (let i = Math.min(155, name.length - 2); i > 0; i--) {
    if (name[i] !== 0x2f) continue;
    const rest = name.length - i - 1;
    if (rest > 100) return null;
    return { prefix: name.subarray(0, i), name: name.subarray(i + 1) };
  }
  return null;
}

function ustar(h: {
  prefix: Buffer;
  name: Buffer;
  type: string;
  size: number;
  mode: number;
  mtime: number;
  linkname: Buffer;
}): Buffer {
  const b = Buffer.alloc(BLOCK);
  h.name.copy(b, 0);
  octal(b, 100, 8, h.mode);
  octal(b, 108, 8, 0); // uid: a restore gives files to the server's runtime user
  octal(b, 116, 8, 0); // gid
  octal(b, 124, 12, h.size);
  octal(b, 136, 12, h.mtime);
  b.write(h.type, 156, 'latin1');
  h.linkname.copy(b, 157);
  b.write('ustar\u000000', 257, 'latin1');
  h.prefix.copy(b, 345);
  // Checksum: the sum of all bytes with the checksum field counted as spaces.
  b.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += b[i]!;
  b.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
  return b;
}

/** `value` as zero-padded octal digits filling `len - 1` bytes, then a NUL. */
function octal(b: Buffer, at: number, len: number, value: number): void {
  b.write(
    `${Math.floor(value)
      .toString(8)
      .padStart(len - 1, '0')}\u0000`,
    at,
    'latin1',
  );
}
