import { describe, expect, it } from 'vitest';
import { fileKey, toFileEntry, type FileEntry } from '../../../api/files.ts';
import { deletePreview, FILE_LIST_LIMIT, visibleEntries } from './listing.ts';
import {
  baseName,
  breadcrumbs,
  directoryFromHash,
  hashFor,
  joinPath,
  normalizeDirectory,
  parentDirectory,
} from './paths.ts';
import { isArchive, isEditable, modeForWire } from './rules.ts';
import { formatModified } from './time.ts';

function entry(name: string, isFile = true, mimetype = 'text/plain'): FileEntry {
  const at = new Date('2025-01-01T00:00:00Z');
  return {
    key: fileKey(name, isFile),
    name,
    mode: isFile ? '-rw-r--r--' : 'drwxr-xr-x',
    modeBits: isFile ? '644' : '755',
    size: 1,
    isFile,
    isSymlink: false,
    mimetype,
    createdAt: at,
    modifiedAt: at,
  };
}

describe('visibleEntries: folders first, then names in order', () => {
  it.each([
    [[], []],
    [
      ['b.txt', 'a.txt'],
      ['a.txt', 'b.txt'],
    ],
    [
      ['z.txt', 'dir/', 'a.txt'],
      ['dir', 'a.txt', 'z.txt'],
    ],
    [
      ['file10', 'file2', 'file1'],
      ['file1', 'file2', 'file10'],
    ],
    [
      ['Zeta', 'alpha', 'Beta'],
      ['alpha', 'Beta', 'Zeta'],
    ],
    [
      ['b/', 'a.txt', 'A/', 'c/'],
      ['A', 'b', 'c', 'a.txt'],
    ],
    [
      ['same', 'same/'],
      ['same', 'same'],
    ],
  ])('%j → %j', (names, expected) => {
    const list = names.map((n) => (n.endsWith('/') ? entry(n.slice(0, -1), false) : entry(n)));
    const shown = visibleEntries(list).entries;
    expect(shown.map((e) => e.name)).toEqual(expected);
    // A file and a folder of the same name: the folder comes first.
    if (names.includes('same/')) expect(shown[0]!.isFile).toBe(false);
  });

  it.each([
    [0, 0, false],
    [249, 249, false],
    [250, 250, false],
    [251, 250, true],
    [1000, 250, true],
  ])('%i entries → %i shown, truncated %s', (count, shown, truncated) => {
    const list = Array.from({ length: count }, (_, i) => entry(`f${String(i).padStart(4, '0')}`));
    const result = visibleEntries(list);
    expect(FILE_LIST_LIMIT).toBe(250);
    expect(result.entries).toHaveLength(shown);
    expect(result.truncated).toBe(truncated);
  });

  it('cuts after sorting, so folders are never the ones left out', () => {
    const list = [...Array.from({ length: 260 }, (_, i) => entry(`a${i}`)), entry('zz', false)];
    const result = visibleEntries(list);
    expect(result.entries[0]!.name).toBe('zz');
    expect(result.truncated).toBe(true);
  });
});

describe('archive and editable rules', () => {
  it.each([
    ['application/zip', true, true, false],
    ['application/x-tar', true, true, false],
    ['application/gzip', true, true, false],
    ['application/x-gzip', true, true, false],
    ['application/x-bzip2', true, true, false],
    ['application/x-xz', true, true, false],
    ['application/zstd', true, true, false],
    ['application/x-lzip', true, true, false],
    ['application/x-br', true, true, false],
    ['application/x-snappy-framed', true, true, false],
    ['application/vnd.rar', true, true, false],
    ['application/x-rar-compressed', true, true, false],
    ['application/zip; charset=binary', true, true, false],
    ['text/plain; charset=utf-8', true, false, true],
    ['application/json', true, false, true],
    ['application/x-sh', true, false, true],
    ['application/java-archive', true, false, false],
    ['application/jar', true, false, false],
    ['application/octet-stream', true, false, false],
    ['image/png', true, false, false],
    ['IMAGE/JPEG', true, false, false],
    ['inode/directory', false, false, false],
    ['application/zip', false, false, false],
    ['text/plain', false, false, false],
  ])('%s (file %s) → archive %s, editable %s', (mimetype, isFile, archive, editable) => {
    expect(isArchive({ isFile, mimetype })).toBe(archive);
    expect(isEditable({ isFile, mimetype })).toBe(editable);
  });
});

describe('modified time', () => {
  const now = new Date(2025, 5, 10, 12, 0, 0);
  const hours = (h: number) => new Date(now.getTime() - h * 3_600_000);
  it.each([
    [hours(0), 'less than a minute ago'],
    [new Date(now.getTime() - 5 * 60_000), '5 minutes ago'],
    [hours(3), 'about 3 hours ago'],
    [hours(47), '2 days ago'],
    [hours(48), '2 days ago'],
    [new Date(now.getTime() - 48 * 3_600_000 - 1000), 'Jun 8th, 2025 11:59AM'],
    [hours(72), 'Jun 7th, 2025 12:00PM'],
    [new Date(2024, 0, 1, 21, 5), 'Jan 1st, 2024 9:05PM'],
  ])('%s → %s', (date, text) => {
    expect(formatModified(date, now)).toBe(text);
  });
});

describe('delete preview', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `file${i + 1}`);
  it.each([
    [1, 1, 0],
    [15, 15, 0],
    [16, 15, 1],
    [40, 15, 25],
  ])('%i names → %i listed, + %i other(s)', (count, listed, others) => {
    const preview = deletePreview(names(count));
    expect(preview.names).toEqual(names(count).slice(0, listed));
    expect(preview.others).toBe(others);
  });
});

describe('paths', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['plugins', '/plugins'],
    ['/plugins/', '/plugins'],
    ['//a///b/', '/a/b'],
    ['/a/./b/../c', '/a/c'],
    ['/../../etc', '/etc'],
    ['..', '/'],
    ['\\a\\b', '/a/b'],
  ])('normalizeDirectory(%j) → %j', (raw, dir) => {
    expect(normalizeDirectory(raw)).toBe(dir);
  });

  it.each([
    ['', '/'],
    ['#/', '/'],
    ['#/plugins/config', '/plugins/config'],
    ['#/my%20world', '/my world'],
    ['#/%2E%2E/%2E%2E/etc', '/etc'],
    ['#/bad%zz', '/bad%zz'],
  ])('directoryFromHash(%j) → %j', (hash, dir) => {
    expect(directoryFromHash(hash)).toBe(dir);
  });

  it('round-trips names through the hash', () => {
    for (const dir of ['/', '/plugins', '/my world/50% #1', '/ünï/cødé']) {
      expect(directoryFromHash(hashFor(dir))).toBe(dir);
    }
    expect(hashFor('/a b/c')).toBe('#/a%20b/c');
  });

  it('joins and splits', () => {
    expect(joinPath('/', 'server.js')).toBe('/server.js');
    expect(joinPath('/plugins', 'a.jar')).toBe('/plugins/a.jar');
    expect(breadcrumbs('/')).toEqual([]);
    expect(breadcrumbs('/a/b')).toEqual([
      { name: 'a', path: '/a' },
      { name: 'b', path: '/a/b' },
    ]);
  });

  it.each([
    ['/plugins/Essentials/config.yml', '/plugins/Essentials', 'config.yml'],
    ['/eula.txt', '/', 'eula.txt'],
    ['plugins//a.yml/', '/plugins', 'a.yml'],
    ['/../../etc/passwd', '/etc', 'passwd'],
    ['/', '/', ''],
  ])('splits the file path %s into its folder %s and name %s', (path, folder, name) => {
    expect(parentDirectory(path)).toBe(folder);
    expect(baseName(path)).toBe(name);
  });

  it('joins a new file name that holds folders inside the current folder', () => {
    expect(joinPath('/plugins', 'conf/app.yml')).toBe('/plugins/conf/app.yml');
    expect(joinPath('/plugins', '../../x.txt')).toBe('/x.txt');
  });
});

describe('wire mapping and modes', () => {
  it('maps a file object to camelCase with dates', () => {
    const mapped = toFileEntry({
      name: 'server.js',
      mode: '-rw-r--r--',
      mode_bits: '644',
      size: 1536,
      is_file: true,
      is_symlink: false,
      mimetype: 'text/plain; charset=utf-8',
      created_at: '2025-01-02T03:04:05+00:00',
      modified_at: '2025-01-02T03:04:06+00:00',
    });
    expect(mapped).toEqual({
      key: 'file:server.js',
      name: 'server.js',
      mode: '-rw-r--r--',
      modeBits: '644',
      size: 1536,
      isFile: true,
      isSymlink: false,
      mimetype: 'text/plain; charset=utf-8',
      createdAt: new Date('2025-01-02T03:04:05Z'),
      modifiedAt: new Date('2025-01-02T03:04:06Z'),
    });
  });

  it.each([
    ['644', 644],
    ['0755', 755],
    [' 700 ', 700],
    ['0007', 7],
  ])('chmod sends %j as %i', (digits, mode) => {
    expect(modeForWire(digits)).toBe(mode);
  });
});
