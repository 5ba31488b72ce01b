import { describe, expect, it } from 'vitest';
import {
  cleanServerPath,
  insideScope,
  leadsIntoScope,
  parseFolderScope,
  pathUnder,
  visibleNames,
} from './scope.ts';

describe('folder scope', () => {
  it('cleans paths lexically against the root, as the daemon jail does', () => {
    expect(cleanServerPath('')).toBe('/');
    expect(cleanServerPath('plugins//a.jar/')).toBe('/plugins/a.jar');
    expect(cleanServerPath('/plugins/../server.properties')).toBe('/server.properties');
    expect(cleanServerPath('../../etc/passwd')).toBe('/etc/passwd');
    expect(cleanServerPath('./plugins/./x')).toBe('/plugins/x');
    expect(pathUnder('/plugins', '../a.jar')).toBe('/a.jar');
    expect(pathUnder('/', 'plugins/a.jar')).toBe('/plugins/a.jar');
  });

  it('is inside a folder, at it or below it; a sibling with the same prefix is outside', () => {
    const folders = ['/plugins', '/world/region'];
    expect(insideScope(folders, '/plugins')).toBe(true);
    expect(insideScope(folders, '/plugins/a/b.jar')).toBe(true);
    expect(insideScope(folders, '/plugins2')).toBe(false);
    expect(insideScope(folders, '/server.properties')).toBe(false);
    expect(insideScope(folders, '/world')).toBe(false);
    expect(insideScope(folders, '/world/region/r.0.0.mca')).toBe(true);
    expect(insideScope(null, '/anything')).toBe(true);
    expect(insideScope(['/'], '/anything')).toBe(true);
    expect(insideScope([], '/')).toBe(false);
  });

  it('shows the directories above a folder with only the way to it', () => {
    const folders = ['/plugins', '/world/region'];
    expect(leadsIntoScope(folders, '/')).toBe(true);
    expect(leadsIntoScope(folders, '/world')).toBe(true);
    expect(leadsIntoScope(folders, '/plugins')).toBe(false);
    expect(leadsIntoScope(folders, '/wor')).toBe(false);
    const root = visibleNames(folders, '/')!;
    expect(['plugins', 'world', 'server.properties', 'plugins2'].filter(root)).toEqual(['plugins', 'world']);
    expect(['region', 'level.dat'].filter(visibleNames(folders, '/world')!)).toEqual(['region']);
    expect(visibleNames(folders, '/config')).toBeNull();
    expect(['a', 'b'].filter(visibleNames(folders, '/plugins')!)).toEqual(['a', 'b']);
  });

  it('reads the stored column: null is no limit, anything unreadable limits to nothing', () => {
    expect(parseFolderScope(null)).toBeNull();
    expect(parseFolderScope('["/plugins"]')).toEqual(['/plugins']);
    expect(parseFolderScope('not json')).toEqual([]);
    expect(parseFolderScope('{"a":1}')).toEqual([]);
  });
});
