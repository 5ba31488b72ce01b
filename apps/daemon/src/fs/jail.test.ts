import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RACE_DEADLINE_MS, raceUntilMet, startSwapper } from '../test-support/swapper.ts';
import { FileError } from './errors.ts';
import { Jail } from './jail.ts';
import { cleanPath } from './paths.ts';
import { kindOf, useJailWorld } from '../test-support/jail-world.ts';

let root: string;
let outside: string;
let jail: Jail;
useJailWorld('talon-jail-', (w) => ({ root, outside, jail } = w));

async function readText(userPath: string): Promise<string> {
  const { handle } = await jail.openRead(userPath);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

describe('cleanPath (lexical step, no disk access)', () => {
  it.each([
    ['a/b.txt', ['a', 'b.txt']],
    ['/a/b.txt', ['a', 'b.txt']],
    ['///a//./b.txt', ['a', 'b.txt']],
    ['a/../b.txt', ['b.txt']],
    ['/etc/passwd', ['etc', 'passwd']],
    ['', []],
    ['/', []],
    ['.', []],
    ['/srv/data/uuid/plugins/x.jar', ['plugins', 'x.jar']],
    ['/srv/data/uuid', []],
    ['/srv/data/uuidother/x', ['srv', 'data', 'uuidother', 'x']],
  ])('%s → %j', (input, parts) => {
    expect(cleanPath('/srv/data/uuid', input)).toEqual(parts);
  });

  it.each(['../../etc/passwd', '..', 'a/../../x', '/../x', '/srv/data/uuid/../other/x'])(
    'refuses %s as outside the root',
    (input) => {
      expect(() => cleanPath('/srv/data/uuid', input)).toThrow(
        expect.objectContaining({ kind: 'outside_root' }) as Error,
      );
    },
  );
});

describe('Jail', () => {
  it('reads files by relative, absolute and data-path-prefixed paths', async () => {
    await mkdir(path.join(root, 'etc'));
    await writeFile(path.join(root, 'etc', 'passwd'), 'inside passwd');
    expect(await readText('etc/passwd')).toBe('inside passwd');
    expect(await readText('/etc/passwd')).toBe('inside passwd');
    expect(await readText(path.join(root, 'etc/passwd'))).toBe('inside passwd');
    expect(await kindOf(jail.openRead('../../etc/passwd'))).toBe('outside_root');
    expect(await kindOf(jail.openRead('missing.txt'))).toBe('not_found');
    expect(await kindOf(jail.openRead('etc'))).toBe('is_directory');
    expect(await kindOf(jail.openRead('/'))).toBe('is_directory');
    expect(await kindOf(jail.openRead('etc/passwd/x'))).toBe('not_found');
    expect(await kindOf(jail.openRead('x'.repeat(300)))).toBe('too_long');
  });

  it('refuses a symlink to the outside as intermediate and as final component', async () => {
    await symlink(outside, path.join(root, 'out'));
    await symlink(path.join(outside, 'secret'), path.join(root, 'secret-link'));
    await symlink('../../' + path.basename(outside), path.join(root, 'rel-out'));
    expect(await kindOf(jail.openRead('out/secret'))).toBe('outside_root');
    expect(await kindOf(jail.openRead('secret-link'))).toBe('outside_root');
    expect(await kindOf(jail.openRead('rel-out/secret'))).toBe('outside_root');
    expect(await kindOf(jail.list('out'))).toBe('outside_root');
    expect(await kindOf(jail.writeFile('out/new.txt', Buffer.from('x')))).toBe('outside_root');
    expect(await kindOf(jail.writeFile('secret-link', Buffer.from('x')))).toBe('outside_root');
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
    expect(await readdir(outside)).toEqual(['secret']);
  });

  it('follows a relative symlink that stays inside the root, but never reads a final symlink', async () => {
    await mkdir(path.join(root, 'real', 'deep'), { recursive: true });
    await writeFile(path.join(root, 'real', 'deep', 'f.txt'), 'hello');
    await symlink('real/deep', path.join(root, 'shortcut'));
    await mkdir(path.join(root, 'other'));
    await symlink('../real', path.join(root, 'other', 'up'));
    await symlink('deep/f.txt', path.join(root, 'real', 'file-link'));
    expect(await readText('shortcut/f.txt')).toBe('hello');
    expect(await readText('other/up/deep/f.txt')).toBe('hello');
    expect((await jail.list('shortcut')).map((e) => e.name)).toEqual(['f.txt']);
    expect(await kindOf(jail.openRead('real/file-link'))).toBe('outside_root');
    // Writing through an in-root directory link lands in the real directory.
    await jail.writeFile('shortcut/g.txt', Buffer.from('via link'));
    expect(await readFile(path.join(root, 'real', 'deep', 'g.txt'), 'utf8')).toBe('via link');
  });

  it('refuses symlink loops', async () => {
    await symlink('b', path.join(root, 'a'));
    await symlink('a', path.join(root, 'b'));
    expect(await kindOf(jail.openRead('a/x'))).toBe('outside_root');
  });

  it('CVE-2023-25152: a dangling symlink to the outside never makes anything appear there', async () => {
    const target = path.join(outside, 'newdir');
    await symlink(target, path.join(root, 'link'));
    await symlink('/', path.join(root, 'link2'));
    expect(await kindOf(jail.writeFile('link/x', Buffer.from('pwned')))).toBe('outside_root');
    expect(await kindOf(jail.writeFile('link/a/b/c', Buffer.from('pwned')))).toBe('outside_root');
    expect(await kindOf(jail.writeFile('link', Buffer.from('pwned')))).toBe('outside_root');
    expect(
      await kindOf(jail.writeFile('link2/root/.ssh/authorized_keys', Buffer.from('ssh-ed25519 AAAA'))),
    ).toBe('outside_root');
    expect(existsSync(target)).toBe(false);
    expect(await readdir(outside)).toEqual(['secret']);
    expect((await lstat(path.join(root, 'link'))).isSymbolicLink()).toBe(true);
    expect(await readlinkTarget('link')).toBe(target);
  });

  it('writes: creates parents 0755 and files 0644, truncates, reports the old size', async () => {
    const first = await jail.writeFile('/a/b/c.txt', Buffer.from('0123456789'));
    expect(first).toEqual({ oldSize: 0, created: true });
    expect((await stat(path.join(root, 'a'))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(root, 'a', 'b'))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(root, 'a', 'b', 'c.txt'))).mode & 0o777).toBe(0o644);
    const second = await jail.writeFile('a/b/c.txt', Buffer.from('abc'));
    expect(second).toEqual({ oldSize: 10, created: false });
    expect(await readFile(path.join(root, 'a', 'b', 'c.txt'), 'utf8')).toBe('abc');
    expect(await kindOf(jail.writeFile('a/b', Buffer.from('x')))).toBe('is_directory');
    expect(await kindOf(jail.writeFile('a/b/c.txt/d', Buffer.from('x')))).toBe('not_found');
  });

  it('gives created files and directories to the owner', async () => {
    const owned = new Jail(root, { uid: 4321, gid: 4322 });
    await owned.writeFile('o/p.txt', Buffer.from('x'));
    for (const p of ['o', 'o/p.txt']) {
      const st = await stat(path.join(root, p));
      expect([st.uid, st.gid]).toEqual(process.getuid?.() === 0 ? [4321, 4322] : [st.uid, st.gid]);
    }
    if (process.getuid?.() !== 0) return;
    expect((await stat(path.join(root, 'o'))).uid).toBe(4321);
  });

  it('the check runs before anything is created and can refuse the write', async () => {
    await writeFile(path.join(root, 'old.txt'), '12345');
    const seen: number[] = [];
    const refuse = (n: number): void => {
      seen.push(n);
      throw new FileError('no_space', 'test');
    };
    expect(await kindOf(jail.writeFile('old.txt', Buffer.from('x'), refuse))).toBe('no_space');
    expect(await kindOf(jail.writeFile('new/dir/f.txt', Buffer.from('x'), refuse))).toBe('no_space');
    expect(seen).toEqual([5, 0]);
    expect(await readFile(path.join(root, 'old.txt'), 'utf8')).toBe('12345');
    expect(existsSync(path.join(root, 'new'))).toBe(false);
  });

  it('refuses FIFOs without blocking, for reading and writing', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    // An open that blocked on the FIFO would never settle (no writer or reader ever comes): the
    // answers arriving at all prove it did not block, whatever the machine's speed.
    expect(await kindOf(jail.openRead('pipe'))).toBe('bad_type');
    expect(await kindOf(jail.writeFile('pipe', Buffer.from('x')))).toBe('bad_type');
  });

  it('lists with lstat and sniffs mime types', async () => {
    await mkdir(path.join(root, 'd'));
    await writeFile(path.join(root, 't.txt'), 'plain text\n');
    await writeFile(path.join(root, 'b.bin'), Buffer.from([0, 1, 2, 3]));
    await writeFile(path.join(root, 'z.gz'), Buffer.from([0x1f, 0x8b, 8, 0]));
    await symlink(outside, path.join(root, 'l'));
    const byName = Object.fromEntries((await jail.list('/')).map((e) => [e.name, e]));
    expect(Object.keys(byName).sort()).toEqual(['b.bin', 'd', 'l', 't.txt', 'z.gz']);
    expect(byName.d!.mime).toBe('inode/directory');
    expect(byName['t.txt']!.mime).toBe('text/plain; charset=utf-8');
    expect(byName['b.bin']!.mime).toBe('application/octet-stream');
    expect(byName['z.gz']!.mime).toBe('application/gzip');
    expect(byName.l!.stat.isSymbolicLink()).toBe(true);
    expect(byName.l!.mime).toBe('application/octet-stream');
    expect(await kindOf(jail.list('nope'))).toBe('not_found');
    expect(await kindOf(jail.list('t.txt'))).toBe('not_found');
  });

  it(
    'CVE-2024-27102: a directory swapped with a symlink to the outside: the outside file is never read or written',
    { timeout: 2 * RACE_DEADLINE_MS },
    async () => {
      // A separate process swaps `dir` between a real directory and a symlink to `outside` as fast
      // as it can while this process reads `dir/secret` through the jail.
      const swapper = startSwapper(path.join(root, 'dir'), outside, { secret: 'inside' });
      await swapper.ready;
      const results: Record<string, number> = {};
      try {
        // At least 3000 reads, and on until a read met the link (a loaded machine may need more).
        await raceUntilMet(
          async (i) => {
            let r: string;
            try {
              r = await readText('dir/secret');
            } catch (err) {
              if (!(err instanceof FileError)) throw err;
              r = err.kind;
            }
            results[r] = (results[r] ?? 0) + 1;
            if (i % 3 === 0) {
              try {
                await jail.writeFile('dir/planted', Buffer.from('planted'));
              } catch (err) {
                if (!(err instanceof FileError)) throw err;
              }
            }
          },
          () => Boolean(results.outside_root),
          3000,
        );
      } finally {
        await swapper.stop();
      }
      expect(results['OUTSIDE SECRET']).toBeUndefined();
      expect(Object.keys(results).every((k) => ['inside', '', 'not_found', 'outside_root'].includes(k))).toBe(
        true,
      );
      // The race really happened: reads saw the link.
      expect(results.outside_root ?? 0).toBeGreaterThan(0);
      expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE SECRET');
      // Writes through the swapping directory never land outside either.
      expect(await readdir(outside)).toEqual(['secret']);
    },
  );
});

async function readlinkTarget(name: string): Promise<string> {
  const { readlink } = await import('node:fs/promises');
  return readlink(path.join(root, name));
}
