import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RuntimeProcess } from './driver.ts';
import { ProcessDriver } from './process-driver.ts';
import { allStats, NS_PER_TICK, PAGE_SIZE, parseStat, processTree, SharedProcessTable } from './proc.ts';
import { Ticker } from './ticker.ts';

/** What /proc says of one tree right now, read pid by pid: the figures a sample must match. */
async function expectedUsage(root: number) {
  let cpuNs = 0;
  let memoryBytes = 0;
  const tree = await processTree(root);
  for (const p of tree) {
    const s = parseStat(await readFile(`/proc/${p.pid}/stat`, 'utf8'))!;
    cpuNs += s.cpuTicks * NS_PER_TICK;
    memoryBytes += s.rssPages * PAGE_SIZE;
  }
  return { cpuNs, memoryBytes, processes: tree.length };
}

async function waitFor<T>(what: string, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('process statistics without cgroups', () => {
  let scans = 0;
  const launched: RuntimeProcess[] = [];

  beforeAll(async () => {
    const driver = await ProcessDriver.create({
      allowUnconfined: true,
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      hidden: [],
      hiddenFiles: [],
      log: pino({ level: 'silent' }),
      cgroupMode: 'none',
      cgroupRoot: '/sys/fs/cgroup',
      forceNoBwrap: true,
      scanProcesses: () => {
        scans++;
        return allStats();
      },
    });
    expect(driver.info.limits).toBe('watchdog');
    // Three "servers" with trees of 2, 3 and 4 processes: a shell and its sleeps. No limits, so no
    // watchdog: every scan counted below is a stats sample's.
    for (let n = 1; n <= 3; n++) {
      const sleeps = Array.from({ length: n }, () => 'sleep 1000 &').join(' ');
      const proc = await driver.launch({
        id: `stats-${n}`,
        kind: 'server',
        serverDir: '/tmp',
        argv: ['sh', '-c', `${sleeps} wait`],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        limits: { memoryBytes: 0, swapBytes: 0, pids: 0, cpuPercent: 0 },
      });
      launched.push(proc);
      await waitFor('the sleeps', async () =>
        (await processTree(proc.pid)).length === n + 1 ? true : undefined,
      );
    }
  });

  afterAll(async () => {
    for (const p of launched) await p.kill();
    await Promise.all(launched.map((p) => p.exited));
  });

  it('samples every server from one /proc scan per tick, each with its own tree figures', async () => {
    scans = 0;
    const samples = await Promise.all(launched.map((p) => p.sample()));
    expect(scans).toBe(1);
    for (const [i, p] of launched.entries()) {
      const expected = await expectedUsage(p.pid);
      expect(expected.processes).toBe(i + 2);
      expect(samples[i]).toMatchObject({ cpuNs: expected.cpuNs, memoryBytes: expected.memoryBytes });
      expect(samples[i]!.memoryBytes).toBeGreaterThan(0);
    }
    // Trees are apart: the biggest tree holds more memory than the smallest.
    expect(samples[2]!.memoryBytes).toBeGreaterThan(samples[0]!.memoryBytes);
  });
});

describe('SharedProcessTable', () => {
  it('scans once for any number of readers, and again once the snapshot is older than its bound', async () => {
    vi.useFakeTimers();
    try {
      let scans = 0;
      const table = new SharedProcessTable(200, () => {
        scans++;
        return allStats();
      });
      const tables = await Promise.all(Array.from({ length: 50 }, () => table.read()));
      expect(scans).toBe(1);
      expect(tables[0]!.tree(process.pid)[0]?.pid).toBe(process.pid);
      vi.advanceTimersByTime(199);
      await table.read();
      expect(scans).toBe(1);
      vi.advanceTimersByTime(1);
      await table.read();
      expect(scans).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Ticker', () => {
  it('runs the jobs of one period from one timer, and stops it with the last job', () => {
    vi.useFakeTimers();
    try {
      const ticker = new Ticker();
      const runs: string[] = [];
      const stopA = ticker.every(1000, () => runs.push('a'));
      const stopB = ticker.every(1000, () => runs.push('b'));
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1000);
      expect(runs).toEqual(['a', 'b']);
      stopA();
      vi.advanceTimersByTime(1000);
      expect(runs).toEqual(['a', 'b', 'b']);
      stopB();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
