// Backup writing speed: the daemon's archive writer (tar + gzip members compressed in parallel,
// apps/daemon/src/backups/) beside `tar -cf - . | gzip -1` (and `| pigz -1` when Debian's pigz is
// installed: `apt-get install pigz`) on the same generated server directory, in the same run.
// The directory is generated deterministically: text configs, a "world" of many small files and a
// few large partly-compressible files. Size: BACKUP_BENCH_MB (default 256).
// Our writer runs in a child process so its peak RSS (maxRSS) is its own.
// Prints MB/s of directory bytes for each, then the ratio ours / `tar | gzip -1` last.
import { execFile, spawnSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Jail } from '../apps/daemon/src/fs/jail.ts';
import { writeBackupArchive } from '../apps/daemon/src/backups/archive-writer.ts';

const run = promisify(execFile);
const MB = 1024 * 1024;

/** Deterministic incompressible bytes: AES-256-CTR of zeros under a fixed key. */
function noise(seed: number, bytes: number): Buffer {
  const key = Buffer.alloc(32, seed);
  return createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(bytes));
}

async function generate(dir: string, totalMb: number): Promise<number> {
  let total = 0;
  const put = async (rel: string, data: Buffer) => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), data);
    total += data.length;
  };
  // Text configs: ~1 % of the size.
  const text = Buffer.from('motd=A Minecraft Server\nmax-players=20\nview-distance=10\n'.repeat(2000));
  for (let i = 0; total < totalMb * MB * 0.01; i++) await put(`config/plugin-${i}.yml`, text);
  // A world of many small files (8–64 KiB, half noise, half zeros): ~40 %.
  for (let i = 0; total < totalMb * MB * 0.41; i++) {
    const size = 8 * 1024 * (1 + (i % 8));
    await put(`world/region/r.${i}.mca`, Buffer.concat([noise(i % 251, size / 2), Buffer.alloc(size / 2)]));
  }
  // A few large files, partly compressible (1 MiB noise, 1 MiB repeated text, alternating).
  for (let f = 0; total < totalMb * MB; f++) {
    const parts: Buffer[] = [];
    for (let m = 0; m < 32; m++) parts.push(m % 2 ? noise(f * 32 + m, MB) : text.subarray(0, MB));
    await put(`large/data-${f}.bin`, Buffer.concat(parts));
  }
  return total;
}

async function ours(dir: string, out: string): Promise<void> {
  const started = process.hrtime.bigint();
  await writeBackupArchive(new Jail(dir), out, 'ours.tar.gz', { level: 1, writeLimitMiB: 0, ignore: null });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(JSON.stringify({ ms, maxRssKiB: process.resourceUsage().maxRSS }));
}

async function timed(cmd: string, dir: string, out: string): Promise<number> {
  const started = process.hrtime.bigint();
  await run('bash', ['-c', `${cmd} > "$1"`, 'bash', out], { cwd: dir });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--ours') return ours(process.argv[3]!, process.argv[4]!);
  const totalMb = Number(process.env.BACKUP_BENCH_MB ?? 256);
  const root = await mkdtemp(path.join(os.tmpdir(), 'talon-bench-backup-'));
  try {
    const dir = path.join(root, 'server');
    const out = path.join(root, 'out');
    await mkdir(out);
    const bytes = await generate(dir, totalMb);
    const mbps = (ms: number) => bytes / MB / (ms / 1000);
    const child = spawnSync('node_modules/.bin/tsx', ['bench/backup.ts', '--ours', dir, out], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(child.stderr);
    const mine = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ms: number; maxRssKiB: number };
    const gzipMs = await timed('tar -cf - . | gzip -1', dir, path.join(out, 'gzip.tar.gz'));
    const hasPigz = spawnSync('which', ['pigz']).status === 0;
    const pigzMs = hasPigz ? await timed('tar -cf - . | pigz -1', dir, path.join(out, 'pigz.tar.gz')) : null;
    const size = async (f: string) => ((await stat(path.join(out, f))).size / MB).toFixed(1);
    console.log(`directory: ${(bytes / MB).toFixed(0)} MiB, ${os.availableParallelism()} cores`);
    console.log(
      `ours (parallel gzip -1):  ${mbps(mine.ms).toFixed(1)} MB/s, ${await size('ours.tar.gz')} MiB, peak RSS ${(mine.maxRssKiB / 1024).toFixed(0)} MiB`,
    );
    console.log(
      `tar | gzip -1:            ${mbps(gzipMs).toFixed(1)} MB/s, ${await size('gzip.tar.gz')} MiB`,
    );
    if (pigzMs !== null) {
      console.log(
        `tar | pigz -1:            ${mbps(pigzMs).toFixed(1)} MB/s, ${await size('pigz.tar.gz')} MiB`,
      );
      console.log(`ratio ours / pigz: ${(pigzMs / mine.ms).toFixed(2)}`);
    } else {
      console.log('tar | pigz -1:            not measured (apt-get install pigz)');
    }
    console.log(`ratio ours / tar | gzip -1: ${(gzipMs / mine.ms).toFixed(2)}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
