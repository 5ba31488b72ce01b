import { describe, expect, it } from 'vitest';
import { climbsAboveRoot, movePairs, movePreview, namesFolder } from './moveTargets.ts';

describe('move targets', () => {
  it('gives one file its full new path: moved and renamed at once', () => {
    expect(movePairs(['a.txt'], '/', 'plugins/b.txt', false)).toEqual([
      { from: '/a.txt', to: '/plugins/b.txt' },
    ]);
    expect(movePairs(['a.txt'], '/world', '/a-old.txt', false)).toEqual([
      { from: '/world/a.txt', to: '/a-old.txt' },
    ]);
  });

  it('moves into a folder for a trailing slash, an existing folder, the root, or several files', () => {
    expect(movePairs(['a.txt'], '/', '/plugins/', false)).toEqual([{ from: '/a.txt', to: '/plugins/a.txt' }]);
    expect(movePairs(['a.txt'], '/', 'plugins', true)).toEqual([{ from: '/a.txt', to: '/plugins/a.txt' }]);
    expect(movePairs(['a.txt'], '/plugins', '/', false)).toEqual([{ from: '/plugins/a.txt', to: '/a.txt' }]);
    expect(movePairs(['a', 'b'], '/', '/backups', false)).toEqual([
      { from: '/a', to: '/backups/a' },
      { from: '/b', to: '/backups/b' },
    ]);
  });

  it('leaves out what would not move', () => {
    expect(movePairs(['a.txt'], '/', '/a.txt', false)).toEqual([]);
    expect(movePairs(['a', 'b'], '/x', '/x/', false)).toEqual([]);
  });

  it('tells a path that climbs above the server root from one that stays inside', () => {
    expect(climbsAboveRoot('../etc/passwd')).toBe(true);
    expect(climbsAboveRoot('/plugins/../../x')).toBe(true);
    expect(climbsAboveRoot('..\\x')).toBe(true);
    expect(climbsAboveRoot('/plugins/../b.txt')).toBe(false);
    expect(climbsAboveRoot('/plugins/./b.txt')).toBe(false);
  });

  it('shows the destination as typed resolves: a file path, or a folder with its slash', () => {
    expect(namesFolder('/plugins/')).toBe(true);
    expect(namesFolder('/')).toBe(true);
    expect(namesFolder('/plugins')).toBe(false);
    expect(movePreview(['a.txt'], 'plugins/b.txt')).toBe('/plugins/b.txt');
    expect(movePreview(['a.txt'], '/plugins/')).toBe('/plugins/');
    expect(movePreview(['a', 'b'], '/backups')).toBe('/backups/');
    expect(movePreview(['a', 'b'], '/')).toBe('/');
  });
});
