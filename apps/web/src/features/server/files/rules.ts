import type { FileEntry } from '../../../api/files.ts';

/**
 * MIME types of the archive formats the daemon can unpack (spec 001 §3): rar, tar, brotli, bzip2,
 * gzip, lzip, snappy, xz, zstd and zip, under the names detectors give them.
 */
const ARCHIVE_TYPES = new Set([
  'application/vnd.rar',
  'application/x-rar',
  'application/x-rar-compressed',
  'application/x-tar',
  'application/x-gtar',
  'application/x-br',
  'application/x-brotli',
  'application/x-bzip',
  'application/x-bzip2',
  'application/gzip',
  'application/x-gzip',
  'application/x-lzip',
  'application/x-snappy-framed',
  'application/x-xz',
  'application/zstd',
  'application/x-zstd',
  'application/zip',
  'application/x-zip',
  'application/x-zip-compressed',
]);

/** Types the text editor must never open: binaries, folders, jars. */
const NOT_EDITABLE_TYPES = new Set([
  'application/java-archive',
  'application/x-java-archive',
  'application/jar',
  'application/octet-stream',
  'inode/directory',
]);

/** `Text/Plain; charset=utf-8` → `text/plain`. */
function baseType(mimetype: string): string {
  return (mimetype.split(';')[0] ?? '').trim().toLowerCase();
}

/** An archive: a file whose type is one of the archive formats. */
export function isArchive(entry: Pick<FileEntry, 'isFile' | 'mimetype'>): boolean {
  return entry.isFile && ARCHIVE_TYPES.has(baseType(entry.mimetype));
}

/** Editable: a file, not an archive, and not a jar, a binary, a folder or an image. */
export function isEditable(entry: Pick<FileEntry, 'isFile' | 'mimetype'>): boolean {
  if (!entry.isFile || isArchive(entry)) return false;
  const type = baseType(entry.mimetype);
  return !NOT_EDITABLE_TYPES.has(type) && !type.startsWith('image/');
}

/** Mode of a folder the page creates, until the list is read again (spec 001 §9: 0755). */
export const DEFAULT_FOLDER_MODE = '755';

/** The chmod call's `mode` for validated octal digits: `'0755'` → 755 (read as octal digits). */
export function modeForWire(digits: string): number {
  return Number(digits.trim());
}
