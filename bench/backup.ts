// Backup speed (`npm run bench -- backup`): the daemon's archive writer (tar through the file jail,
// gzip members compressed in worker threads, apps/daemon/src/backups/) beside `tar -cf - . | gzip -1`
// and `tar -cf - . | pigz -1` (Debian's pigz: `apt-get install pigz`; its column is skipped when it
// is missing), and our restore (the archive checked entry by entry, then extracted through the jail)
// beside `tar -xzf`, all on the same generated server directory in the same run. Same compression
// level everywhere: 1, the daemon's default (`best_speed`).
//
// The directory (BACKUP_BENCH_MB, default 1024 MiB) is generated from a seeded PRNG, so every run
// backs up the same bytes: text configs, a world of many small files (region files of compressed
// chunks and zero padding, small player files), and a few large partly-compressible files. It lives
// in a mktemp directory removed at the end. Files are read from the page cache (written just
// before), so this measures the CPU side: packing and compressing, not the disk.
//
// Ours runs in a child process, so its peak RSS (process.resourceUsage().maxRSS) and its CPU time
// (process.cpuUsage(): every thread) are its own; the others' CPU time comes from /usr/bin/time.
// BACKUP_BENCH_ROUNDS (default 3) rounds run each contender in turn; the medians are printed. CPU
// time is the figure a loaded machine disturbs least: wall time there depends on the scheduler.
import { spawn, spawnSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Jail } from '../apps/daemon/src/fs/jail.ts';
import { writeBackupArchive } from '../apps/daemon/src/backups/archive-writer.ts';
import { checkArchive, extractArchive } from '../apps/daemon/src/backups/restore.ts';

const MB = 1024 * 1024;

/** mulberry32: a small seeded PRNG for the generator's choices (sizes, words, mixes). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded incompressible bytes (AES-256-CTR keystream under a key made from the seed). */
function noise(seed: number, bytes: number): Buffer {
  const key = Buffer.alloc(32);
  key.writeUInt32LE(seed >>> 0, 0);
  return createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(bytes));
}

/** Seeded bytes that compress about 2:1 (16 symbols: noise with the high nibble fixed). */
function lowEntropy(seed: number, bytes: number): Buffer {
  const b = noise(seed, bytes);
  for (let i = 0; i < b.length; i++) b[i] = 0x40 | (b[i]! & 0x0f);
  return b;
}

const WORDS =
  'server motd players world spawn view distance difficulty gamemode enable true false level seed port query rcon whitelist online mode max tick time network compression threshold entity broadcast'.split(
    ' ',
  );

/** Seeded config text: `key.path: value` lines of a few words and numbers. */
function configText(rand: () => number, bytes: number): Buffer {
  let s = '';
  const word = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  while (s.length < bytes) {
    s += `${word()}-${word()}.${word()}: ${rand() < 0.5 ? Math.floor(rand() * 10000) : `${word()} ${word()}`}\n`;
  }
  return Buffer.from(s.slice(0, bytes));
}

async function generate(dir: string, totalMb: number): Promise<{ bytes: number; files: number }> {
  const rand = prng(13);
  let bytes = 0;
  let files = 0;
  const put = async (rel: string, data: Buffer) => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), data);
    bytes += data.length;
    files++;
  };
  const target = totalMb * MB;
  // Text configs: ~3 %, 1–40 KiB each.
  for (let i = 0; bytes < target * 0.03; i++) {
    await put(
      `config/plugin-${i % 40}/config-${i}.yml`,
      configText(rand, 1024 + Math.floor(rand() * 40 * 1024)),
    );
  }
  // A world of many small files, ~45 %: region files of 4 KiB sectors (zlib-compressed chunk data:
  // noise, then zero padding to the sector) of 8–96 KiB, and player data files of 1–6 KiB.
  for (let i = 0; bytes < target * 0.48; i++) {
    if (i % 3 === 2) {
      await put(
        `world/playerdata/${i.toString(16).padStart(8, '0')}.dat`,
        lowEntropy(i, 1024 + Math.floor(rand() * 5 * 1024)),
      );
      continue;
    }
    const sectors = 2 + Math.floor(rand() * 22);
    const used = Math.floor(sectors * 4096 * (0.6 + rand() * 0.4));
    const region = Buffer.alloc(sectors * 4096);
    noise(i, used).copy(region);
    await put(`world/region/r.${i % 64}.${Math.floor(i / 64)}.mca`, region);
  }
  // A few large files (the rest): 1 MiB blocks, a seeded mix of noise, 2:1 data and text logs.
  for (let f = 0; bytes < target; f++) {
    const size = Math.min(target - bytes, 160 * MB);
    const h = await open(path.join(dir, `large-${f}.db`), 'w').catch(async () => {
      await mkdir(dir, { recursive: true });
      return open(path.join(dir, `large-${f}.db`), 'w');
    });
    for (let at = 0; at < size; at += MB) {
      const n = Math.min(MB, size - at);
      const pick = rand();
      const seed = f * 100_000 + at / MB;
      await h.write(pick < 0.4 ? noise(seed, n) : pick < 0.8 ? lowEntropy(seed, n) : configText(rand, n));
    }
    await h.close();
    bytes += size;
    files++;
  }
  return { bytes, files };
}

/** Run ours in this (child) process and print its time and peak RSS as JSON. */
async function child(mode: string, a: string, b: string): Promise<void> {
  const rssBeforeKiB = Math.round(process.memoryUsage().rss / 1024); // tsx and the modules, before any work
  const started = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  const cpu0 = process.cpuUsage(); // every thread of the process: main, workers, libuv's pool
  const cpuMs = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  if (mode === '--ours-backup') {
    await writeBackupArchive(new Jail(a), path.dirname(b), path.basename(b), {
      level: 1,
      writeLimitMiB: 0,
      ignore: null,
    });
    console.log(
      JSON.stringify({ ms: ms(), cpuMs: cpuMs(), rssBeforeKiB, maxRssKiB: process.resourceUsage().maxRSS }),
    );
    return;
  }
  const h = await open(a, 'r');
  await checkArchive(h);
  const checkMs = ms();
  await extractArchive(h, new Jail(b), () => undefined);
  await h.close();
  console.log(
    JSON.stringify({
      ms: ms(),
      cpuMs: cpuMs(),
      checkMs,
      rssBeforeKiB,
      maxRssKiB: process.resourceUsage().maxRSS,
    }),
  );
}

interface Ours {
  ms: number;
  cpuMs: number;
  checkMs?: number;
  rssBeforeKiB: number;
  maxRssKiB: number;
}

function ours(args: string[]): Ours {
  const res = spawnSync('node_modules/.bin/tsx', ['bench/backup.ts', ...args], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`ours failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Ours;
}

/** Wall and CPU milliseconds (CPU: user + system, from /usr/bin/time; null without it). */
interface Timed {
  ms: number;
  cpuMs: number | null;
}

const HAS_TIME = spawnSync('/usr/bin/time', ['-f', '', 'true']).status === 0;

/** `cmd args` under /usr/bin/time writing its user and system seconds to `cpuFile`, when present. */
function timedSpawn(cmd: string, args: string[], cpuFile: string, opts: Parameters<typeof spawn>[2]) {
  return HAS_TIME
    ? spawn('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, cmd, ...args], opts)
    : spawn(cmd, args, opts);
}

async function cpuOf(files: string[]): Promise<number | null> {
  if (!HAS_TIME) return null;
  let ms = 0;
  for (const f of files) {
    const [u, s] = (await readFile(f, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
    ms += (u! + s!) * 1000;
  }
  return ms;
}

/** `tar -cf - . | <compressor>` in `dir`, into `out`; argument arrays, no shell. */
async function tarPipe(dir: string, compressor: string[], out: string): Promise<Timed> {
  const cpu = [`${out}.tar-cpu`, `${out}.gz-cpu`];
  const started = process.hrtime.bigint();
  const fd = openSync(out, 'w');
  try {
    const tar = timedSpawn('tar', ['-cf', '-', '.'], cpu[0]!, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const gz = timedSpawn(compressor[0]!, compressor.slice(1), cpu[1]!, {
      stdio: [tar.stdout!, fd, 'inherit'],
    });
    tar.stdout!.destroy(); // the compressor has its own copy of the pipe; this process reads nothing
    const codes = await Promise.all([tar, gz].map((p) => new Promise<number | null>((r) => p.on('exit', r))));
    if (codes.some((c) => c !== 0)) throw new Error(`${compressor[0]} pipe failed: ${codes.join(',')}`);
  } finally {
    closeSync(fd);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, cpuMs: await cpuOf(cpu) };
}

async function tarExtract(archive: string, dest: string): Promise<Timed> {
  await mkdir(dest);
  const cpu = `${dest}.cpu`;
  const started = process.hrtime.bigint();
  const p = timedSpawn('tar', ['-xzf', archive, '-C', dest], cpu, { stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => p.on('exit', r));
  if (code !== 0) throw new Error(`tar -xzf failed: ${code}`);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, cpuMs: await cpuOf([cpu]) }; // tar's own CPU; the gzip it runs is not counted
}

/** The run with the median wall time. */
function median<T extends { ms: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--generate')
    return void (await generate(process.argv[3]!, Number(process.argv[4])));
  if (process.argv[2]?.startsWith('--ours'))
    return child(process.argv[2], process.argv[3]!, process.argv[4]!);
  const totalMb = Number(process.env.BACKUP_BENCH_MB ?? 1024);
  const root = await mkdtemp(path.join(os.tmpdir(), 'talon-bench-backup-'));
  try {
    const dir = path.join(root, 'server');
    const out = path.join(root, 'out');
    await mkdir(out);
    const { bytes, files } = await generate(dir, totalMb);
    const loadBefore = (await readFile('/proc/loadavg', 'utf8')).trim();
    const mbps = (ms: number) => bytes / MB / (ms / 1000);
    const size = async (f: string) => ((await stat(path.join(out, f))).size / MB).toFixed(0);

    // Rounds, each contender in turn, so a change in the machine's load falls on all of them.
    const rounds = Number(process.env.BACKUP_BENCH_ROUNDS ?? 3);
    const hasPigz = spawnSync('pigz', ['--version']).status === 0;
    const runs = { ours: [] as Ours[], gzip: [] as Timed[], pigz: [] as Timed[] };
    for (let r = 0; r < rounds; r++) {
      runs.ours.push(ours(['--ours-backup', dir, path.join(out, 'ours.tar.gz')]));
      runs.gzip.push(await tarPipe(dir, ['gzip', '-1'], path.join(out, 'gzip.tar.gz')));
      if (hasPigz) runs.pigz.push(await tarPipe(dir, ['pigz', '-1'], path.join(out, 'pigz.tar.gz')));
    }
    await rm(dir, { recursive: true, force: true }); // room for the restores
    const restores = { ours: [] as Ours[], tar: [] as Timed[] };
    for (let r = 0; r < rounds; r++) {
      restores.ours.push(
        ours(['--ours-restore', path.join(out, 'ours.tar.gz'), await mkdtemp(path.join(root, 'r-'))]),
      );
      restores.tar.push(await tarExtract(path.join(out, 'ours.tar.gz'), path.join(root, `tar-x-${r}`)));
      for (const d of await readdir(root))
        if (d.startsWith('r-') || d.startsWith('tar-x-'))
          await rm(path.join(root, d), { recursive: true, force: true });
    }
    const loadAfter = (await readFile('/proc/loadavg', 'utf8')).trim();

    const mine = median(runs.ours);
    const gzip = median(runs.gzip);
    const pigz = hasPigz ? median(runs.pigz) : null;
    const restore = median(restores.ours);
    const tarX = median(restores.tar);
    const cpu = (t: { cpuMs: number | null }) =>
      t.cpuMs === null ? 'CPU n/a' : `CPU ${(t.cpuMs / 1000).toFixed(1)} s`;
    const pad = (s: string) => s.padEnd(30);
    console.log(
      `directory: ${(bytes / MB).toFixed(0)} MiB in ${files} files; ${os.availableParallelism()} cores`,
    );
    console.log(`load average before: ${loadBefore}; after: ${loadAfter}`);
    console.log(
      `median of ${rounds} rounds (wall MB/s of directory bytes; CPU: user + system of every thread and process)`,
    );
    console.log(
      `${pad('ours backup (gzip -1 members):')} ${mbps(mine.ms).toFixed(1)} MB/s, ${cpu(mine)}, ${await size('ours.tar.gz')} MiB, peak RSS ${(Math.max(...runs.ours.map((o) => o.maxRssKiB)) / 1024).toFixed(0)} MiB (${(mine.rssBeforeKiB / 1024).toFixed(0)} MiB before it started)`,
    );
    console.log(
      `${pad('tar | gzip -1:')} ${mbps(gzip.ms).toFixed(1)} MB/s, ${cpu(gzip)}, ${await size('gzip.tar.gz')} MiB`,
    );
    if (pigz) {
      console.log(
        `${pad('tar | pigz -1:')} ${mbps(pigz.ms).toFixed(1)} MB/s, ${cpu(pigz)}, ${await size('pigz.tar.gz')} MiB`,
      );
    } else {
      console.log(`${pad('tar | pigz -1:')} not measured: pigz is not installed (apt-get install pigz)`);
    }
    console.log(
      `${pad('ours restore (check + write):')} ${mbps(restore.ms).toFixed(1)} MB/s, ${cpu(restore)} (check alone ${mbps(restore.checkMs!).toFixed(1)} MB/s), peak RSS ${(restore.maxRssKiB / 1024).toFixed(0)} MiB`,
    );
    console.log(`${pad('tar -xzf:')} ${mbps(tarX.ms).toFixed(1)} MB/s, ${cpu(tarX)} (tar only)`);
    console.log(`ratio ours / tar | gzip -1: ${(gzip.ms / mine.ms).toFixed(2)} (goal ≥ 1.5)`);
    if (pigz) console.log(`ratio ours / tar | pigz -1: ${(pigz.ms / mine.ms).toFixed(2)} (goal ≥ 0.9)`);
    if (pigz?.cpuMs) console.log(`CPU ratio tar | pigz -1 / ours: ${(pigz.cpuMs / mine.cpuMs).toFixed(2)}`);
    console.log(`ratio ours restore / tar -xzf: ${(tarX.ms / restore.ms).toFixed(2)}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
