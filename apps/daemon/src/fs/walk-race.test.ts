import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RACE_DEADLINE_MS, raceUntilMet, startSwapper } from '../test-support/swapper.ts';
import { compress } from './archive.ts';
import { FileError } from './errors.ts';
import { Jail } from './jail.ts';
import { tarEntries } from '../test-support/archives.ts';

// The daemon's whole-tree walks (ownership pass, disk usage, removal, archive creation) while a
// separate process swaps a directory of the server for a symlink to a "host" directory as fast as
// it can (CVE-2024-27102, 1.0.0-beta.8). Each test goes on until the walk really met a swap, within
// a bound, and then checks that nothing of the host was touched, counted or read.

const MIN_ROUNDS = 200;
const HOST_SECRET = 'HOST SECRET';

let base: string;
let root: string;
let host: string;
let jail: Jail;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'talon-walkrace-'));
  root = path.join(base, 'server');
  host = await mkdtemp(path.join(os.tmpdir(), 'talon-host-'));
  await mkdir(root);
  await mkdir(path.join(host, 'etc'));
  await writeFile(path.join(host, 'secret'), HOST_SECRET);
  await writeFile(path.join(host, 'etc', 'shadow'), HOST_SECRET);
  jail = new Jail(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(host, { recursive: true, force: true });
});

/** Owner, mode and content of everything in the host directory. */
async function hostState(): Promise<string[]> {
  const out: string[] = [];
  for (const rel of ['', 'secret', 'etc', 'etc/shadow']) {
    const p = path.join(host, rel);
    const st = await lstat(p);
    out.push(`${rel} ${st.uid}:${st.gid} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isFile()) out.push(await readFile(p, 'utf8'));
  }
  return out;
}

/** Run `pass` while `server/evil` swaps, until a pass reports a met swap (and at least MIN_ROUNDS). */
async function race(pass: () => Promise<number>): Promise<{ met: number }> {
  const swapper = startSwapper(path.join(root, 'evil'), host, { secret: 'inside', shadow: 'inside' });
  let met = 0;
  try {
    await swapper.ready;
    await raceUntilMet(
      async () => {
        met += await pass();
      },
      () => met > 0,
      MIN_ROUNDS,
    );
  } finally {
    await swapper.stop();
  }
  return { met };
}

/** A FileError or an errno error the walk may give up with while entries keep changing. */
function tolerated(err: unknown): number {
  if (err instanceof FileError || (err as NodeJS.ErrnoException).code) return 0;
  throw err;
}

// A slow machine takes longer to meet the race: the bound is the race deadline, not a speed.
describe(
  'whole-tree walks under a symlink swap (CVE-2024-27102, 1.0.0-beta.8)',
  { timeout: 2 * RACE_DEADLINE_MS },
  () => {
    it.runIf(process.getuid?.() === 0)(
      'ownership pass: a directory swapped for a link to the host never hands host files to the server user',
      async () => {
        const before = await hostState();
        const owner = { uid: 12_345, gid: 12_345 };
        const { met } = await race(async () => (await jail.chownAll(owner)).swapped);
        expect(await hostState()).toEqual(before);
        expect(met).toBeGreaterThan(0);
        // The pass still does its job on what really is the server's.
        await writeFile(path.join(root, 'own.txt'), 'x');
        await jail.chownAll(owner);
        expect((await stat(path.join(root, 'own.txt'))).uid).toBe(owner.uid);
      },
    );

    it('disk usage: a directory swapped for a link to the host never counts host files', async () => {
      await writeFile(path.join(host, 'big'), Buffer.alloc(1024 * 1024));
      await writeFile(path.join(root, 'mine'), 'abc');
      let most = 0;
      const { met } = await race(async () => {
        const u = await jail.usage();
        most = Math.max(most, u.bytes);
        return u.swapped;
      });
      // `mine` plus at most the swapper's two small files.
      expect(most).toBeLessThan(100);
      expect(met).toBeGreaterThan(0);
    });

    it('removing a server directory: a directory swapped for a link to the host removes only the link', async () => {
      const before = await hostState();
      const { met } = await race(async () => {
        await mkdir(root, { recursive: true });
        await writeFile(path.join(root, 'mine'), 'abc');
        try {
          return (await jail.destroy()).swapped;
        } catch (err) {
          return tolerated(err);
        }
      });
      expect(await hostState()).toEqual(before);
      expect(met).toBeGreaterThan(0);
    });

    it('deleting an entry: a directory swapped for a link to the host removes only the link', async () => {
      const before = await hostState();
      const { met } = await race(async () => {
        try {
          return (await jail.removeTree('evil'))?.swapped ?? 0;
        } catch (err) {
          return tolerated(err);
        }
      });
      expect(await hostState()).toEqual(before);
      expect(met).toBeGreaterThan(0);
    });

    it('archive creation: a directory swapped for a link to the host never puts host files in the archive', async () => {
      const seen = new Set<string>();
      await race(async () => {
        const chunks: Buffer[] = [];
        const out = { write: async (c: Uint8Array) => void chunks.push(Buffer.from(c)), isSelf: () => false };
        try {
          await compress(jail, [], ['evil'], 1, out);
        } catch (err) {
          return tolerated(err);
        }
        const entries = await tarEntries(Buffer.concat(chunks));
        for (const body of entries.values()) seen.add(body);
        // Met: archives with the inside content and archives without it (the walk met the link).
        return seen.has('inside') && entries.size === 0 ? 1 : 0;
      });
      expect([...seen].filter((b) => b.includes(HOST_SECRET))).toEqual([]);
      expect(seen.has('inside')).toBe(true);
      expect(await readdir(host)).toEqual(['etc', 'secret']);
    });
  },
);
