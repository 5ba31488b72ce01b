import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';
import { V2 } from './cgroups.ts';
import { ProcessDriver } from './process-driver.ts';
import { processTree } from './proc.ts';
import { joinCgroupsArgv } from './sandbox.ts';

// Root only, like the daemon. Hierarchies are mounted in test-only directories under /var/tmp and
// the daemon is pointed at them with runtime.cgroup_root, so each kind is exercised on purpose.

const SMALL = {
  memory_limit: 64,
  swap: 0,
  io_weight: 500,
  cpu_limit: 0,
  threads: null,
  disk_space: 0,
  oom_disabled: false,
};

async function ask(ws: WsClient, command: string, prefix: string): Promise<string> {
  const at = ws.messages.length;
  ws.send('send command', command);
  const m = await ws.waitFor(
    (x) => x.event === 'console output' && (x.args?.[0] ?? '').startsWith(prefix),
    15_000,
    at,
  );
  return m.args![0]!;
}

/** Fork bomb (bounded: 64 children of `sleep 20`) and memory bomb (200 MiB against 64) on a stack. */
async function bombs(stack: Stack): Promise<void> {
  const forker = await stack.createInstalled();
  const ws = await stack.startedWs(forker);
  expect(await ask(ws, 'fork 64', 'forked')).toMatch(/errors EAGAIN/);
  ws.send('set state', 'kill');
  await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000, ws.messages.length - 1);

  const hog = await stack.createInstalled(undefined, { settings: { build: SMALL } });
  const ws2 = await stack.startedWs(hog);
  const at = ws2.messages.length;
  ws2.send('send command', 'mem 200');
  await ws2.waitFor((m) => m.args?.[0]?.includes('Out of memory: true') ?? false, 15_000, at);
  expect(ws2.messages.slice(at).some((m) => m.args?.[0] === 'allocated 200 MiB')).toBe(false);
  // Crash detection restarts it once; end it.
  await ws2.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000, at);
  ws2.send('set state', 'kill');
  await ws2.waitFor(
    (m) => m.event === 'status' && m.args?.[0] === 'offline',
    10_000,
    ws2.messages.length - 1,
  );
}

function mount(args: string[]): void {
  execFileSync('mount', args, { stdio: 'pipe' });
}

function umount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // not mounted (the mount itself failed)
  }
}

describe('cgroup v1 at a configured root', () => {
  const V1_CONTROLLERS = ['memory', 'pids', 'cpu', 'cpuacct'];
  let root: string;
  let stack: Stack | undefined;
  beforeAll(async () => {
    root = await mkdtemp('/var/tmp/talon-cgroup-v1-');
    // Mounting a v1 controller again hands back its existing hierarchy: the kernel's real limits.
    for (const c of V1_CONTROLLERS) {
      await mkdir(path.join(root, c));
      mount(['-t', 'cgroup', '-o', c, 'none', path.join(root, c)]);
    }
    stack = await startStack({
      config: { runtime: { stats_interval_ms: 250, pid_limit: 32, cgroups: 'v1', cgroup_root: root } },
    });
  });
  afterAll(async () => {
    await stack?.dispose();
    for (const c of V1_CONTROLLERS) umount(path.join(root, c));
    await rm(root, { recursive: true, force: true });
  });

  it('reports kernel-enforced v1 limits in /api/system', async () => {
    const system = await stack!.api('GET', '/api/system');
    expect(system.body.runtime).toEqual({
      driver: 'process',
      confinement: 'bwrap',
      limits: 'cgroup-v1',
      enforcement: 'kernel',
      network: null,
    });
  });

  it('stops a fork bomb at pids.max and OOM-kills a memory bomb, reporting it', async () => {
    await bombs(stack!);
  });
});

describe('cgroup v2 at a configured root (a test-only cgroup2 mount)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp('/var/tmp/talon-cgroup-v2-');
    mount(['-t', 'cgroup2', 'none', root]);
  });
  afterAll(async () => {
    // The test group is removed by its own test; the talon base stays empty in the hierarchy.
    await rm(path.join(root, 'talon-test'), { recursive: true, force: true }).catch(() => undefined);
    umount(root);
    await rm(root, { recursive: true, force: true });
  });

  it('puts a launch and all it forks in the group, ends them with cgroup.kill and removes the group', async () => {
    const base = path.join(root, 'talon-test');
    await mkdir(base, { recursive: true });
    const group = await new V2(base).create('server-1', {
      memoryBytes: 0,
      swapBytes: -1,
      pids: 0,
      cpuPercent: 0,
    });
    const argv = joinCgroupsArgv(group.joinDirs, [
      '/bin/sh',
      '-c',
      'sleep 30 & sleep 30 & echo started; wait',
    ]);
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const members = await group.pids();
    expect(members.sort()).toEqual((await processTree(child.pid!)).map((p) => p.pid).sort());
    expect(members).toHaveLength(3);
    const exited = new Promise((r) => child.once('exit', (_code, signal) => r(signal)));
    await group.killAll();
    expect(await exited).toBe('SIGKILL');
    await waitUntil(async () => (await group.pids()).length === 0, 5000, 'group empty');
    await group.destroy();
    expect(existsSync(group.joinDirs[0]!)).toBe(false);
  });

});

// The kernel enforces v2 limits only where memory, pids and cpu are bound to cgroup v2. A controller
// serves one hierarchy at a time, and this project's hosts (and CI) bind them to v1, so the real
// cgroup2 mount above offers none of them. What the v2 code writes and reads is checked here against
// the interface files themselves, in a plain directory laid out as the kernel lays out a group:
// the values a bomb would meet (pids.max, memory.max) and the counters crash detection reads.
describe('cgroup v2 limits and accounting (interface files)', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp('/var/tmp/talon-cgroup-v2-files-');
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('writes memory.max, pids.max and cpu.max, and reads usage and OOM kills as crash detection does', async () => {
    const dir = path.join(base, 'server-2');
    // memory.swap.max is written only where the kernel created it (no swap accounting: absent).
    const handle = await new V2(base).create('server-2', {
      memoryBytes: 64 * 1024 * 1024,
      swapBytes: 0,
      pids: 32,
      cpuPercent: 150,
    });
    expect(handle.joinDirs).toEqual([dir]);
    expect(await readFile(path.join(dir, 'memory.max'), 'utf8')).toBe(String(64 * 1024 * 1024));
    expect(await readFile(path.join(dir, 'pids.max'), 'utf8')).toBe('32');
    expect(await readFile(path.join(dir, 'cpu.max'), 'utf8')).toBe('150000 100000');
    expect(existsSync(path.join(dir, 'memory.swap.max'))).toBe(false);

    await writeFile(path.join(dir, 'memory.current'), '50331648\n');
    await writeFile(path.join(dir, 'memory.stat'), 'anon 40000000\ninactive_file 1048576\nactive_file 0\n');
    await writeFile(path.join(dir, 'cpu.stat'), 'usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n');
    await writeFile(path.join(dir, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n');
    expect(await handle.usage()).toEqual({ cpuNs: 2_500_000, memoryBytes: 50331648 - 1048576 });
    expect(await handle.oomKilled()).toBe(false);
    await writeFile(path.join(dir, 'memory.events'), 'low 0\nhigh 0\nmax 9\noom 2\noom_kill 1\n');
    expect(await handle.oomKilled()).toBe(true);
  });
});

describe('without cgroups (watchdog)', () => {
  it('logs that limits are best-effort and why, when the configured cgroups are not there', async () => {
    const empty = await mkdtemp('/var/tmp/talon-no-cgroups-');
    const lines: Record<string, any>[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    try {
      const driver = await ProcessDriver.create({
        allowUnconfined: false,
        uid: 988,
        gid: 988,
        hidden: [],
        hiddenFiles: [],
        log,
        cgroupMode: 'v2',
        cgroupRoot: empty,
      });
      expect(driver.info).toMatchObject({ limits: 'watchdog', enforcement: 'best-effort' });
      const warn = lines.find((l) => l.level === 40 && /best-effort/.test(l.msg));
      expect(warn?.msg).toContain('memory and process limits are best-effort');
      expect(warn?.problems).toEqual([`no cgroup v2 hierarchy at ${empty}`]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('says so in /api/system, and the watchdog still ends a fork bomb', async () => {
    const stack = await startStack({
      config: { runtime: { stats_interval_ms: 250, pid_limit: 32, cgroups: 'none' } },
    });
    try {
      const system = await stack.api('GET', '/api/system');
      expect(system.body.runtime).toEqual({
        driver: 'process',
        confinement: 'bwrap',
        limits: 'watchdog',
        enforcement: 'best-effort',
        network: null,
      });
      const uuid = await stack.createInstalled();
      const ws = await stack.startedWs(uuid);
      const at = ws.messages.length;
      ws.send('send command', 'fork 64');
      // More processes than pid_limit: the watchdog kills the whole tree, which is a crash.
      await ws.waitFor(
        (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('crashed state'),
        15_000,
        at,
      );
      ws.send('set state', 'kill');
    } finally {
      await stack.dispose();
    }
  });
});
