import { constants, type Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileObject, goModeString, rfc3339, sortListing } from './file-object.ts';
import { sniffMime } from './mime.ts';

describe("Go's FileMode strings", () => {
  it.each([
    [constants.S_IFREG | 0o644, '-rw-r--r--'],
    [constants.S_IFDIR | 0o755, 'drwxr-xr-x'],
    [constants.S_IFLNK | 0o777, 'Lrwxrwxrwx'],
    [constants.S_IFIFO | 0o600, 'prw-------'],
    [constants.S_IFSOCK | 0o755, 'Srwxr-xr-x'],
    [constants.S_IFCHR | 0o666, 'Dcrw-rw-rw-'],
    [constants.S_IFBLK | 0o660, 'Drw-rw----'],
    [constants.S_IFREG | 0o4755, 'urwxr-xr-x'],
    [constants.S_IFDIR | 0o1777, 'dtrwxrwxrwx'],
    [constants.S_IFREG | 0o2750, 'grwxr-x---'],
    [constants.S_IFREG, '----------'],
  ])('%o → %s', (mode, s) => {
    expect(goModeString(mode)).toBe(s);
  });
});

describe('file objects', () => {
  const st = (mode: number, size = 10): Stats =>
    ({
      mode,
      size,
      ctime: new Date('2024-05-01T10:20:30.456Z'),
      mtime: new Date('2024-05-02T00:00:00.999Z'),
      isDirectory: () => (mode & constants.S_IFMT) === constants.S_IFDIR,
      isSymbolicLink: () => (mode & constants.S_IFMT) === constants.S_IFLNK,
    }) as Stats;

  it('has the Wings fields, with symlink telling the truth', () => {
    expect(fileObject('a.txt', st(constants.S_IFREG | 0o644), 'text/plain; charset=utf-8')).toEqual({
      name: 'a.txt',
      created: '2024-05-01T10:20:30Z',
      modified: '2024-05-02T00:00:00Z',
      mode: '-rw-r--r--',
      mode_bits: '644',
      size: 10,
      directory: false,
      file: true,
      symlink: false,
      mime: 'text/plain; charset=utf-8',
    });
    const link = fileObject('l', st(constants.S_IFLNK | 0o777), 'application/octet-stream');
    expect([link.symlink, link.file, link.directory, link.mode_bits]).toEqual([true, true, false, '777']);
    const dir = fileObject('d', st(constants.S_IFDIR | 0o700), 'inode/directory');
    expect([dir.directory, dir.file, dir.mode_bits]).toEqual([true, false, '700']);
  });

  it('sorts directories first, then by name', () => {
    const names = [
      fileObject('b', st(constants.S_IFREG), ''),
      fileObject('z', st(constants.S_IFDIR), ''),
      fileObject('a', st(constants.S_IFREG), ''),
      fileObject('c', st(constants.S_IFDIR), ''),
    ]
      .sort(sortListing)
      .map((f) => f.name);
    expect(names).toEqual(['c', 'z', 'a', 'b']);
    expect(rfc3339(new Date(0))).toBe('1970-01-01T00:00:00Z');
  });
});

describe('mime sniffing', () => {
  it.each([
    [Buffer.from('hello\nworld\t\r\n'), 'text/plain; charset=utf-8'],
    [Buffer.from('héllo ✓'), 'text/plain; charset=utf-8'],
    [Buffer.from('✓').subarray(0, 2), 'text/plain; charset=utf-8'], // cut multi-byte character at the end
    [Buffer.alloc(0), 'text/plain; charset=utf-8'],
    [Buffer.from([0xc3, 0x28]), 'application/octet-stream'], // invalid UTF-8
    [Buffer.from('a\0b'), 'application/octet-stream'],
    [Buffer.from([0x1f, 0x8b, 0x08]), 'application/gzip'],
    [Buffer.from('PK\x03\x04rest'), 'application/zip'],
    [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'image/png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [Buffer.from('%PDF-1.7'), 'application/pdf'],
    [Buffer.concat([Buffer.alloc(257), Buffer.from('ustar\0')]), 'application/x-tar'],
  ])('%#', (buf, mime) => {
    expect(sniffMime(buf)).toBe(mime);
  });
});
