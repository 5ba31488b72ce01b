import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileError } from './errors.ts';
import { Jail } from './jail.ts';

// The jail operations used by SFTP: openWrite, mkdirAll, remove, removeTree, rename, chmod,
// symlink, readlink. Each is tried against escapes through `..`, absolute and relative symlinks.

let base: string;
let root: string;
let outside: string;
let jail: Jail;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'talon-jailops-'));
  root = path.join(base, 'server');
  outside = await mkdtemp(path.join(os.tmpdir(), 'talon-outside-'));
  await mkdir(root);
  await writeFile(path.join(outside, 'secret'), 'OUTSIDE SECRET');
  jail = new Jail(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FileError) return err.kind;
    throw err;
  }
  return 'ok';
}

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

describe('remove and removeTree', () => {
  it('removes a file and a symlink (not its target); refuses a directory for remove', async () => {
    await writeFile(path.join(root, 'f'), 'x');
    await symlink(path.join(outside, 'secret'), path.join(root, 'link'));
    await mkdir(path.join(root, 'd'));
    await jail.remove('f');
    await jail.remove('link');
    expect(existsSync(path.join(root, 'f'))).toBe(false);
    expect(existsSync(path.join(root, 'link'))).toBe(false);
    expect(existsSync(path.join(outside, 'secret'))).toBe(true);
    expect(await kindOf(jail.remove('d'))).toBe('is_directory');
    expect(await kindOf(jail.remove('missing'))).toBe('not_found');
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
    expect(await kindOf(jail.rename('nope', 'c'))).toBe('not_found');
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
    expect(await kindOf(jail.chmod('link', 0o777))).toBe('bad_type');
    await symlink(outside, path.join(root, 'dirlink'));
    expect(await kindOf(jail.chmod('dirlink/secret', 0o777))).toBe('outside_root');
    expect((await stat(path.join(outside, 'secret'))).mode & 0o777).toBe(before);
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
