/** Magic numbers checked before the text test, first match wins. */
const MAGIC: { offset: number; bytes: number[]; mime: string }[] = [
  { offset: 0, bytes: [0x1f, 0x8b], mime: 'application/gzip' },
  { offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04], mime: 'application/zip' },
  { offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06], mime: 'application/zip' },
  { offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], mime: 'image/png' },
  { offset: 0, bytes: [0xff, 0xd8, 0xff], mime: 'image/jpeg' },
  { offset: 0, bytes: [0x47, 0x49, 0x46, 0x38], mime: 'image/gif' },
  { offset: 0, bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], mime: 'application/pdf' },
  { offset: 0, bytes: [0x42, 0x5a, 0x68], mime: 'application/x-bzip2' },
  { offset: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], mime: 'application/x-xz' },
  { offset: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], mime: 'application/zstd' },
  { offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], mime: 'application/x-7z-compressed' },
  { offset: 0, bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], mime: 'application/x-rar-compressed' },
  { offset: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], mime: 'application/x-executable' },
  { offset: 0, bytes: [0xca, 0xfe, 0xba, 0xbe], mime: 'application/x-java-applet' },
  { offset: 257, bytes: [0x75, 0x73, 0x74, 0x61, 0x72], mime: 'application/x-tar' }, // "ustar"
];

export const TEXT_MIME = 'text/plain; charset=utf-8';
export const BINARY_MIME = 'application/octet-stream';

/**
 * The type of a file from its first bytes (up to 512): a few archive/image/document signatures,
 * else UTF-8 text without control characters (tab, newlines, form feed and ESC allowed) is
 * `text/plain; charset=utf-8`, anything else `application/octet-stream`. An empty file is text.
 */
export function sniffMime(head: Uint8Array): string {
  for (const m of MAGIC) {
    if (head.length >= m.offset + m.bytes.length && m.bytes.every((b, i) => head[m.offset + i] === b)) {
      return m.mime;
    }
  }
  for (const b of head) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) return BINARY_MIME;
    if (b === 0x7f) return BINARY_MIME;
  }
  try {
    // stream: a multi-byte character cut at the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return BINARY_MIME;
  }
  return TEXT_MIME;
}
