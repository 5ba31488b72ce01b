import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createCipheriv } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Jail } from '../fs/jail.ts';
import { writeBackupArchive } from './archive-writer.ts';
import { WriteLimiter, type Clock } from './rate-limit.ts';

const MIB = 1024 * 1024;

/** A clock that only moves when told to or when slept on; it records every wait asked for. */
function fakeClock(): Clock & { waits: number[]; advance(ms: number): void } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms) {
      waits.push(ms);
      now += ms;
    },
  };
}

describe('the backup write limit', () => {
  it('waits until the bytes written are within the limit for the time spent', async () => {
    const clock = fakeClock();
    const limiter = new WriteLimiter(2, clock); // 2 MiB/s
    await limiter.wrote(MIB); // 1 MiB at 2 MiB/s: 500 ms
    expect(clock.waits).toEqual([500]);
    clock.advance(100); // time spent elsewhere counts
    await limiter.wrote(MIB / 2); // 1.5 MiB by 750 ms; 600 ms passed
    expect(clock.waits).toEqual([500, 150]);
    clock.advance(1000); // behind the limit: no wait
    await limiter.wrote(MIB);
    expect(clock.waits).toEqual([500, 150]);
  });

  it('never waits without a limit', async () => {
    const clock = fakeClock();
    const limiter = new WriteLimiter(0, clock);
    for (let i = 0; i < 10; i++) await limiter.wrote(100 * MIB);
    expect(clock.waits).toEqual([]);
  });

  it('makes a backup ask for the archive size over the limit in waits', async () => {
    const root = await mkdtemp('/var/tmp/talon-backup-limit-');
    try {
      const server = path.join(root, 'server');
      await mkdir(server);
      // Incompressible, so the archive is several 1 MiB members.
      const key = Buffer.alloc(32, 7);
      await writeFile(
        path.join(server, 'noise.bin'),
        createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(3 * MIB)),
      );
      const clock = fakeClock();
      const result = await writeBackupArchive(new Jail(server), path.join(root, 'out'), 'b.tar.gz', {
        level: 1,
        writeLimitMiB: 4,
        ignore: null,
        clock,
        threads: 1,
      });
      expect(result.size).toBe((await stat(path.join(root, 'out', 'b.tar.gz'))).size);
      expect(clock.waits.length).toBeGreaterThanOrEqual(4);
      // The clock moved only by the waits: together they are the size at 4 MiB/s.
      const total = clock.waits.reduce((a, b) => a + b, 0);
      expect(total).toBeCloseTo((result.size / (4 * MIB)) * 1000, 6);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
