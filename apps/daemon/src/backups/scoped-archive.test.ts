import { describe, expect, it } from 'vitest';
import { entryInScope } from './scoped-archive.ts';

describe('entryInScope (a folder-scoped backup download)', () => {
  const folders = ['/plugins', '/world/region'];
  const e = (name: string, type: 'file' | 'directory' | 'symlink' | 'link' = 'file', linkname = '') =>
    entryInScope(folders, { name, type, linkname });

  it('keeps what is inside the folders and the directories on the way to them', () => {
    expect(e('plugins/a.jar')).toBe(true);
    expect(e('./plugins/deep/b.yml')).toBe(true);
    expect(e('world', 'directory')).toBe(true);
    expect(e('world/region/r.mca')).toBe(true);
    expect(e('plugins/link', 'symlink', '/etc/passwd')).toBe(true); // a link is only a name in the archive
  });

  it('drops everything else, names that climb out, and hard links to files outside', () => {
    expect(e('server.js')).toBe(false);
    expect(e('world/level.dat')).toBe(false);
    expect(e('world', 'file')).toBe(false);
    expect(e('plugins/../server.js')).toBe(false);
    expect(e('../plugins/a.jar')).toBe(false);
    expect(e('/plugins/a.jar')).toBe(false);
    expect(e('plugins/copy', 'link', 'server.js')).toBe(false);
    expect(e('plugins/copy', 'link', 'plugins/a.jar')).toBe(true);
  });
});
