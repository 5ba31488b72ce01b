import { existsSync } from 'node:fs';
import { link, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from './errors.ts';
import { Jail } from './jail.ts';
import { kindOf, useJailWorld } from '../test-support/jail-world.ts';

// The jail operations used by SFTP: openWrite, mkdirAll, remove, removeTree, rename, chmod,
// symlink, readlink. Each is tried against escapes through `..`, absolute and relative symlinks.

let root: string;
let outside: string;
let jail: Jail;
useJailWorld('talon-jailops-', (w) => ({ root, outside, jail } = w));

describe('openWrite', () => {
  it('creates parents and a 0644 file, truncates an existing one, and writes at offsets', async () => {
    const { handle, created } = await jail.openWrite('a/b/c.txt');
    expect(created).toBe(true);
    await handle.write(Buffer.from('world'), 0, 5, 6);
    await handle.write(Buffer.from('hello '), 0, 6, 0);
    await handle.close();
    expect(await readFile(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('hello world');
    expect((await stat(path.join(root, 'a/b/c.txt'))).mode & 0o777).toBe(0o644);
    const again = await jail.openWrite('a/b/c.txt');
    expect(again.created).toBe(false);
    expect(again.oldSize).toBe(11);
    await again.handle.close();
    expect((await stat(path.join(root, 'a/b/c.txt'))).size).toBe(0);
  });

  it('refuses a symlink as file, a symlinked parent to the outside and a dangling link', async () => {
    await symlink(path.join(outside, 'secret'), path.join(root, 'abs'));
    await symlink('../../', path.join(root, 'up'));
    await symlink(path.join(outside, 'newdir'), path.join(root, 'dangling'));
    expect(await kindOf(jail.openWrite('abs'))).toBe('outside_root');
    expect(await kindOf(jail.openWrite('up/x'))).toBe('outside_root');
    expect(await kindOf(jail.openWrite('dangling/x'))).toBe('outside_root');
    expect(await kindOf(jail.openWrite('dangling'))).toBe('outside_root');
    expect(await kindOf(jail.openWrite('../../escape'))).toBe('outside_root');
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    expect(existsSync(path.join(outside, 'newdir'))).toBe(false);
  });

  it('runs the check before changing anything', async () => {
    await writeFile(path.join(root, 'keep'), 'data');
    const refused = jail.openWrite('keep', () => {
      throw new FileError('no_space', 'full');
    });
    expect(await kindOf(refused)).toBe('no_space');
    expect(await readFile(path.join(root, 'keep'), 'utf8')).toBe('data');
  });
});

describe('mkdirAll', () => {
  it('creates nested directories and refuses to create through links to the outside', async () => {
    await jail.mkdirAll('x/y/z');
    expect((await stat(path.join(root, 'x/y/z'))).isDirectory()).toBe(true);
    await symlink(path.join(outside, 'made'), path.join(root, 'dangling'));
    await symlink(outside, path.join(root, 'out'));
    expect(await kindOf(jail.mkdirAll('dangling'))).toBe('outside_root');
    expect(await kindOf(jail.mkdirAll('dangling/sub'))).toBe('outside_root');
    expect(await kindOf(jail.mkdirAll('out/sub'))).toBe('outside_root');
    expect(existsSync(path.join(outside, 'made'))).toBe(false);
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
  });
});

describe('removeTree and destroy', () => {
  it('removes a file and a symlink (not its target); `file` refuses a directory, `directory` a file', async () => {
    await writeFile(path.join(root, 'f'), 'xyz');
    await symlink(path.join(outside, 'secret'), path.join(root, 'link'));
    await mkdir(path.join(root, 'd'));
    expect(await jail.removeTree('f', 'file')).toEqual({ freed: 3, swapped: 0 });
    await jail.removeTree('link', 'file');
    expect(existsSync(path.join(root, 'f'))).toBe(false);
    expect(existsSync(path.join(root, 'link'))).toBe(false);
    expect(existsSync(path.join(outside, 'secret'))).toBe(true);
    expect(await kindOf(jail.removeTree('d', 'file'))).toBe('is_directory');
    await writeFile(path.join(root, 'g'), 'x');
    expect(await kindOf(jail.removeTree('g', 'directory'))).toBe('bad_type');
    expect(await jail.removeTree('missing')).toBeNull();
    expect(await jail.removeTree('nodir/missing')).toBeNull();
  });

  it('destroy removes the root with everything in it, links as links; a missing root is no error', async () => {
    await mkdir(path.join(root, 'a/b'), { recursive: true });
    await writeFile(path.join(root, 'a/b/f'), 'x');
    await symlink(outside, path.join(root, 'a/out'));
    await jail.destroy();
    expect(existsSync(root)).toBe(false);
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    await jail.destroy();
  });

  it('removes a tree without following links inside it, and never deletes through a link', async () => {
    await mkdir(path.join(root, 'tree/sub'), { recursive: true });
    await writeFile(path.join(root, 'tree/sub/file'), 'x');
    await symlink(outside, path.join(root, 'tree/sub/out'));
    await symlink(outside, path.join(root, 'outlink'));
    expect(await kindOf(jail.removeTree('outlink/secret'))).toBe('outside_root');
    await jail.removeTree('tree');
    expect(existsSync(path.join(root, 'tree'))).toBe(false);
    await jail.removeTree('outlink');
    expect(existsSync(path.join(root, 'outlink'))).toBe(false);
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    expect(await kindOf(jail.removeTree('/'))).toBe('outside_root');
  });
});

describe('rename', () => {
  it('moves inside the root, creates destination parents and never overwrites', async () => {
    await writeFile(path.join(root, 'a'), 'A');
    await writeFile(path.join(root, 'b'), 'B');
    expect(await kindOf(jail.rename('a', 'b'))).toBe('exists');
    await jail.rename('a', 'deep/er/a2');
    expect(await readFile(path.join(root, 'deep/er/a2'), 'utf8')).toBe('A');
    expect(await jail.rename('nope', 'c')).toBe(false);
    expect(await jail.rename('nodir/nope', 'c')).toBe(false);
  });

  it('refuses sources and destinations outside the root', async () => {
    await writeFile(path.join(root, 'mine'), 'M');
    await symlink(outside, path.join(root, 'out'));
    expect(await kindOf(jail.rename('out/secret', 'stolen'))).toBe('outside_root');
    expect(await kindOf(jail.rename('mine', 'out/planted'))).toBe('outside_root');
    expect(await kindOf(jail.rename('mine', '../../planted'))).toBe('outside_root');
    expect(existsSync(path.join(outside, 'planted'))).toBe(false);
    expect(existsSync(path.join(root, 'stolen'))).toBe(false);
    expect(await kindOf(jail.rename('/', 'x'))).toBe('outside_root');
  });
});

describe('chmod', () => {
  it('changes files and directories and refuses symlinks (their target keeps its mode)', async () => {
    await writeFile(path.join(root, 'f'), 'x');
    await jail.chmod('f', 0o600);
    expect((await stat(path.join(root, 'f'))).mode & 0o777).toBe(0o600);
    await mkdir(path.join(root, 'd'));
    await jail.chmod('d', 0o700);
    expect((await stat(path.join(root, 'd'))).mode & 0o777).toBe(0o700);
    const before = (await stat(path.join(outside, 'secret'))).mode & 0o777;
    await symlink(path.join(outside, 'secret'), path.join(root, 'link'));
    expect(await kindOf(jail.chmod('link', 0o777))).toBe('outside_root');
    await symlink(outside, path.join(root, 'dirlink'));
    expect(await kindOf(jail.chmod('dirlink/secret', 0o777))).toBe('outside_root');
    expect((await stat(path.join(outside, 'secret'))).mode & 0o777).toBe(before);
    expect(await jail.chmod('missing', 0o644)).toBe(false);
    expect(await kindOf(jail.chmod('/', 0o777))).toBe('outside_root');
  });

  it('refuses setuid and setgid bits (the daemon is root: no set-id files for anyone); sticky is fine', async () => {
    await writeFile(path.join(root, 'tool'), 'x');
    for (const mode of [0o4755, 0o2755, 0o6777])
      expect(await kindOf(jail.chmod('tool', mode))).toBe('bad_mode');
    expect((await stat(path.join(root, 'tool'))).mode & 0o7777).toBe(0o644);
    await jail.chmod('tool', 0o1755);
    expect((await stat(path.join(root, 'tool'))).mode & 0o7777).toBe(0o1755);
  });
});

describe('chownAll and usage', () => {
  it.runIf(process.getuid?.() === 0)(
    'gives the root and everything below it to the owner; links as links, their targets untouched',
    async () => {
      const owner = { uid: 23_456, gid: 23_457 };
      await mkdir(path.join(root, 'd/e'), { recursive: true });
      await writeFile(path.join(root, 'd/e/f'), 'x');
      await symlink(outside, path.join(root, 'd/out'));
      expect(await jail.chownAll(owner)).toEqual({ swapped: 0 });
      for (const p of ['', 'd', 'd/e', 'd/e/f', 'd/out']) {
        const st = await lstat(path.join(root, p));
        expect({ p, uid: st.uid, gid: st.gid }).toEqual({ p, ...owner });
      }
      expect((await stat(path.join(outside, 'secret'))).uid).toBe(0);
      expect((await stat(outside)).uid).toBe(0);
    },
  );

  it.runIf(process.getuid?.() === 0)(
    'leaves a hard link to a file it does not own alone (a hard link to a host file)',
    async () => {
      const owner = { uid: 23_456, gid: 23_457 };
      await link(path.join(outside, 'secret'), path.join(root, 'hard'));
      await jail.chownAll(owner);
      expect((await stat(path.join(outside, 'secret'))).uid).toBe(0);
    },
  );

  it('usage sums regular files below the root, never through links', async () => {
    await mkdir(path.join(root, 'd'));
    await writeFile(path.join(root, 'a'), 'abc');
    await writeFile(path.join(root, 'd/b'), 'de');
    await symlink(outside, path.join(root, 'out'));
    await symlink(path.join(outside, 'secret'), path.join(root, 'd/sec'));
    expect(await jail.usage()).toEqual({ bytes: 5, swapped: 0 });
  });
});

describe('symlink and readlink', () => {
  it('creates a link with any target text and reads it back; the link itself gives no access', async () => {
    await jail.symlink('/etc/passwd', 'pw');
    expect(await readlink(path.join(root, 'pw'))).toBe('/etc/passwd');
    expect((await lstat(path.join(root, 'pw'))).isSymbolicLink()).toBe(true);
    expect(await jail.readlink('pw')).toBe('/etc/passwd');
    expect(await kindOf(jail.openRead('pw'))).toBe('outside_root');
    expect(await kindOf(jail.symlink('x', '../../outside-link'))).toBe('outside_root');
    await writeFile(path.join(root, 'plain'), 'x');
    expect(await kindOf(jail.readlink('plain'))).toBe('bad_type');
  });
});
