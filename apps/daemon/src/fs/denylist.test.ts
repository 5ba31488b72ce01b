import { describe, expect, it } from 'vitest';
import { FileDenylist, denylistFor } from './denylist.ts';
import { cleanPath } from './paths.ts';

const denies = (patterns: string[], p: string, isDir = false): boolean =>
  new FileDenylist(patterns).denies(cleanPath('/srv/uuid', p), isDir);

describe('egg file denylist (gitignore semantics)', () => {
  it.each([
    // pattern without slash: any depth
    [['*.jar'], 'server.jar', true],
    [['*.jar'], 'plugins/x.jar', true],
    [['*.jar'], 'server.jar.txt', false],
    [['server.properties'], 'a/b/server.properties', true],
    [['server.properties'], 'server.properties.bak', false],
    // leading slash anchors to the root
    [['/server.jar'], 'server.jar', true],
    [['/server.jar'], '/server.jar', true],
    [['/server.jar'], 'plugins/server.jar', false],
    // a slash in the middle anchors too
    [['config/app.yml'], 'config/app.yml', true],
    [['config/app.yml'], 'x/config/app.yml', false],
    // trailing slash: the directory and everything below, not a file of that name
    [['logs/'], 'logs/latest.log', true],
    [['logs/'], 'a/logs/deep/x', true],
    [['logs/'], 'logs', false],
    // a pattern matching a directory covers what is below it
    [['config'], 'config/app.yml', true],
    [['/config'], 'sub/config/app.yml', false],
    // ? and character classes
    [['file?.txt'], 'file1.txt', true],
    [['file?.txt'], 'file10.txt', false],
    [['file?.txt'], 'file/.txt', false],
    [['[abc].txt'], 'b.txt', true],
    [['[!abc].txt'], 'b.txt', false],
    [['[!abc].txt'], 'd.txt', true],
    // ** forms
    [['**/secret.txt'], 'secret.txt', true],
    [['**/secret.txt'], 'a/b/secret.txt', true],
    [['a/**/b'], 'a/b', true],
    [['a/**/b'], 'a/x/y/b', true],
    [['a/**/b'], 'c/a/x/b', false],
    [['data/**'], 'data/x/y', true],
    [['data/**'], 'other/data/x', false],
    // * does not cross directories in anchored patterns
    [['/plugins/*.jar'], 'plugins/x.jar', true],
    [['/plugins/*.jar'], 'plugins/sub/x.jar', false],
    // negation: the last matching pattern wins
    [['*.jar', '!server.jar'], 'server.jar', false],
    [['*.jar', '!server.jar'], 'other.jar', true],
    [['!server.jar', '*.jar'], 'server.jar', true],
    // comments, blanks, escapes
    [['# *.jar', '', '   '], 'x.jar', false],
    [['\\#notes'], '#notes', true],
    [['\\!bang'], '!bang', true],
    [['*.jar   '], 'x.jar', true],
    // matched on the cleaned path: `a/../` cannot sidestep an anchored pattern (Wings quirk fixed)
    [['/server.jar'], 'a/../server.jar', true],
    [['/config/'], 'x/../config/app.yml', true],
    // dots are literal
    [['a.b'], 'axb', false],
    [[], 'anything', false],
  ])('%j vs %s → %s', (patterns, p, expected) => {
    expect(denies(patterns, p)).toBe(expected);
  });

  it('a trailing-slash pattern matches the path itself when it is a directory', () => {
    expect(denies(['logs/'], 'logs', true)).toBe(true);
    expect(denies(['logs/'], 'logs', false)).toBe(false);
  });

  it('never denies the root itself and caches per configuration array', () => {
    const patterns = ['*'];
    expect(new FileDenylist(patterns).denies([])).toBe(false);
    expect(denylistFor(patterns)).toBe(denylistFor(patterns));
    expect(denylistFor(undefined).empty).toBe(true);
    expect(denylistFor(patterns).denies(['x'])).toBe(true);
  });
});
