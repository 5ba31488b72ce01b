import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, realpath, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeKill } from './proc.ts';

/** Limits for one server process group. 0 = unlimited. */
export interface ResourceLimits {
  memoryBytes: number;
  /** Extra swap allowed on top of memory; < 0 = unlimited. */
  swapBytes: number;
  pids: number;
  /** Percent of one core (200 = two cores). */
  cpuPercent: number;
}

export interface CgroupUsage {
  cpuNs: number;
  memoryBytes: number;
}

/** One server's cgroup(s), created fresh for each launch and removed after the process is gone. */
export interface CgroupHandle {
  /** Directories whose `cgroup.procs` the launcher joins before exec. */
  readonly joinDirs: string[];
  usage(): Promise<CgroupUsage>;
  oomKilled(): Promise<boolean>;
  killAll(): Promise<void>;
  /** The processes in the group now. */
  pids(): Promise<number[]>;
  /**
   * New memory, swap and CPU limits for the running group (a build change the panel synced).
   * `over-memory` when the group uses more memory than the new limit and the kernel cannot reclaim
   * it (cgroup v1 refuses such a limit with EBUSY): the caller must end the process.
   */
  setLimits(limits: ResourceLimits): Promise<'applied' | 'over-memory'>;
  destroy(): Promise<void>;
}

export interface CgroupSystem {
  readonly kind: 'v2' | 'v1';
  create(name: string, limits: ResourceLimits): Promise<CgroupHandle>;
}

async function writeIf(file: string, value: string): Promise<void> {
  if (existsSync(file)) await writeFile(file, value);
}

/** Writes an existing control file; EBUSY (a limit below what the group holds) is reported, not thrown. */
async function writeBusy(file: string, value: string): Promise<'ok' | 'busy'> {
  if (!existsSync(file)) return 'ok';
  try {
    await writeFile(file, value);
    return 'ok';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EBUSY') return 'busy';
    throw err;
  }
}

async function readNum(file: string): Promise<number> {
  try {
    return Number((await readFile(file, 'utf8')).trim()) || 0;
  } catch {
    return 0;
  }
}

async function statField(file: string, key: string): Promise<number> {
  try {
    const line = (await readFile(file, 'utf8')).split('\n').find((l) => l.startsWith(`${key} `));
    return line ? Number(line.split(' ')[1]) || 0 : 0;
  } catch {
    return 0;
  }
}

async function readProcs(dir: string): Promise<number[]> {
  try {
    return (await readFile(path.join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // cgroup already gone
  }
}

async function killProcs(dir: string): Promise<void> {
  try {
    const pids = (await readFile(path.join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean);
    for (const p of pids) safeKill(Number(p), 'SIGKILL');
  } catch {
    // cgroup already gone
  }
}

/** rmdir fails with EBUSY until the kernel has reaped the last task; retry briefly. */
async function removeDir(dir: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (i === 20) await killProcs(dir);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/**
 * cgroup v1 (this project's hosts: v2 carries no memory controller). Server groups live in a
 * `talon` group nested under the daemon's own group in each hierarchy, so a daemon that itself
 * runs inside a limited group never lets its servers escape that limit.
 */
export class V1 implements CgroupSystem {
  readonly kind = 'v1';
  constructor(private readonly bases: Record<'memory' | 'pids' | 'cpu' | 'cpuacct', string>) {}

  async create(name: string, limits: ResourceLimits): Promise<CgroupHandle> {
    const dirs = {
      memory: path.join(this.bases.memory, name),
      pids: path.join(this.bases.pids, name),
      cpu: path.join(this.bases.cpu, name),
      cpuacct: path.join(this.bases.cpuacct, name),
    };
    const unique = [...new Set(Object.values(dirs))];
    for (const d of unique) {
      if (existsSync(d)) {
        await killProcs(d); // left over from a daemon that died: nothing may keep running in it
        await removeDir(d);
      }
      await mkdir(d, { recursive: true });
    }
    if (limits.memoryBytes > 0) {
      await writeFile(path.join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      if (limits.swapBytes >= 0) {
        // memsw = memory + swap; without it a server could page its way past the limit.
        await writeIf(
          path.join(dirs.memory, 'memory.memsw.limit_in_bytes'),
          String(limits.memoryBytes + limits.swapBytes),
        );
      }
    }
    if (limits.pids > 0) await writeFile(path.join(dirs.pids, 'pids.max'), String(limits.pids));
    if (limits.cpuPercent > 0) {
      await writeFile(path.join(dirs.cpu, 'cpu.cfs_period_us'), '100000');
      await writeFile(path.join(dirs.cpu, 'cpu.cfs_quota_us'), String(limits.cpuPercent * 1000));
    }
    return {
      joinDirs: unique,
      usage: async () => {
        const usage = await readNum(path.join(dirs.memory, 'memory.usage_in_bytes'));
        const inactive = await statField(path.join(dirs.memory, 'memory.stat'), 'total_inactive_file');
        return {
          cpuNs: await readNum(path.join(dirs.cpuacct, 'cpuacct.usage')),
          memoryBytes: inactive < usage ? usage - inactive : usage,
        };
      },
      oomKilled: async () => (await statField(path.join(dirs.memory, 'memory.oom_control'), 'oom_kill')) > 0,
      killAll: async () => {
        for (const d of unique) await killProcs(d);
      },
      pids: () => readProcs(dirs.memory),
      setLimits: async (next) => {
        const memory = path.join(dirs.memory, 'memory.limit_in_bytes');
        const memsw = path.join(dirs.memory, 'memory.memsw.limit_in_bytes');
        const mem = next.memoryBytes > 0 ? String(next.memoryBytes) : '-1';
        const both =
          next.memoryBytes > 0 && next.swapBytes >= 0 ? String(next.memoryBytes + next.swapBytes) : '-1';
        // The kernel keeps memory ≤ memory+swap at every step: lower memory first, raise memsw first.
        const lowering = next.memoryBytes > 0 && (await readNum(memory)) > next.memoryBytes;
        if (lowering) {
          if ((await writeBusy(memory, mem)) === 'busy') return 'over-memory';
          if ((await writeBusy(memsw, both)) === 'busy') return 'over-memory';
        } else {
          if ((await writeBusy(memsw, both)) === 'busy') return 'over-memory';
          if ((await writeBusy(memory, mem)) === 'busy') return 'over-memory';
        }
        const quota = next.cpuPercent > 0 ? String(next.cpuPercent * 1000) : '-1';
        await writeFile(path.join(dirs.cpu, 'cpu.cfs_period_us'), '100000');
        await writeFile(path.join(dirs.cpu, 'cpu.cfs_quota_us'), quota);
        return 'applied';
      },
      destroy: async () => {
        for (const d of unique) await removeDir(d);
      },
    };
  }
}

/** cgroup v2 with the memory, pids and cpu controllers delegated to a `talon` group. */
export class V2 implements CgroupSystem {
  readonly kind = 'v2';
  constructor(private readonly base: string) {}

  async create(name: string, limits: ResourceLimits): Promise<CgroupHandle> {
    const dir = path.join(this.base, name);
    if (existsSync(dir)) {
      await writeIf(path.join(dir, 'cgroup.kill'), '1');
      await removeDir(dir);
    }
    await mkdir(dir);
    if (limits.memoryBytes > 0) {
      await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      if (limits.swapBytes >= 0) await writeIf(path.join(dir, 'memory.swap.max'), String(limits.swapBytes));
    }
    if (limits.pids > 0) await writeFile(path.join(dir, 'pids.max'), String(limits.pids));
    if (limits.cpuPercent > 0)
      await writeFile(path.join(dir, 'cpu.max'), `${limits.cpuPercent * 1000} 100000`);
    return {
      joinDirs: [dir],
      usage: async () => {
        const usage = await readNum(path.join(dir, 'memory.current'));
        const inactive = await statField(path.join(dir, 'memory.stat'), 'inactive_file');
        return {
          cpuNs: (await statField(path.join(dir, 'cpu.stat'), 'usage_usec')) * 1000,
          memoryBytes: inactive < usage ? usage - inactive : usage,
        };
      },
      oomKilled: async () => (await statField(path.join(dir, 'memory.events'), 'oom_kill')) > 0,
      killAll: async () => {
        await writeIf(path.join(dir, 'cgroup.kill'), '1');
        await killProcs(dir);
      },
      pids: () => readProcs(dir),
      setLimits: async (next) => {
        // v2 takes any value: a memory.max below the usage makes the kernel reclaim, then OOM-kill.
        await writeIf(path.join(dir, 'memory.max'), next.memoryBytes > 0 ? String(next.memoryBytes) : 'max');
        await writeIf(
          path.join(dir, 'memory.swap.max'),
          next.memoryBytes > 0 && next.swapBytes >= 0 ? String(next.swapBytes) : 'max',
        );
        await writeIf(
          path.join(dir, 'cpu.max'),
          `${next.cpuPercent > 0 ? next.cpuPercent * 1000 : 'max'} 100000`,
        );
        return 'applied';
      },
      destroy: () => removeDir(dir),
    };
  }
}

/** The daemon's own group path in a v1 hierarchy, from /proc/self/cgroup. */
function ownV1Path(controller: string): string {
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, ctrls, p] = line.split(':');
    if (ctrls?.split(',').includes(controller)) return p ?? '/';
  }
  return '/';
}

const V2_CONTROLLERS = ['memory', 'pids', 'cpu'];

/** cgroup v2 mounted at `root`, or why it cannot be used. */
async function tryV2(root: string): Promise<CgroupSystem | string> {
  const controllers = path.join(root, 'cgroup.controllers');
  if (!existsSync(controllers)) return `no cgroup v2 hierarchy at ${root}`;
  const have = (await readFile(controllers, 'utf8')).trim().split(/\s+/).filter(Boolean);
  const missing = V2_CONTROLLERS.filter((c) => !have.includes(c));
  if (missing.length > 0) {
    // A controller can be bound to one hierarchy only: on hosts that mount it as cgroup v1 it is
    // missing here.
    return `cgroup v2 at ${root} lacks the ${missing.join(', ')} controller(s) (it offers: ${have.join(' ') || 'none'})`;
  }
  const base = path.join(root, 'talon');
  try {
    await writeFile(path.join(root, 'cgroup.subtree_control'), '+memory +pids +cpu');
    await mkdir(base, { recursive: true });
    await writeFile(path.join(base, 'cgroup.subtree_control'), '+memory +pids +cpu');
    return new V2(base);
  } catch (err) {
    return `cannot delegate controllers under ${base}: ${(err as Error).message}`;
  }
}

/** cgroup v1 with one hierarchy per controller below `root`, or why it cannot be used. */
async function tryV1(root: string): Promise<CgroupSystem | string> {
  const ctrls = ['memory', 'pids', 'cpu', 'cpuacct'] as const;
  const bases = {} as Record<(typeof ctrls)[number], string>;
  for (const c of ctrls) {
    try {
      const mount = await realpath(path.join(root, c));
      if (!existsSync(path.join(mount, 'cgroup.procs'))) return `no cgroup v1 ${c} hierarchy at ${mount}`;
      bases[c] = path.join(mount, ownV1Path(c), 'talon');
      await mkdir(bases[c], { recursive: true });
    } catch (err) {
      return `cgroup v1 ${c} hierarchy unusable under ${root}: ${(err as Error).message}`;
    }
  }
  return new V1(bases);
}

export type CgroupMode = 'auto' | 'v2' | 'v1' | 'none';

export interface CgroupDetection {
  system: CgroupSystem | null;
  /** Why each tried kind was not used (empty when the first choice worked or mode is `none`). */
  problems: string[];
}

/**
 * `auto` picks v2 when it has the controllers, else v1; `v2`/`v1` try only that kind; `none` and
 * a daemon that is not root get no cgroups (the caller then runs a watchdog).
 */
export async function detectCgroups(root: string, mode: CgroupMode): Promise<CgroupDetection> {
  if (mode === 'none') return { system: null, problems: ['cgroups disabled (runtime.cgroups = none)'] };
  if (process.getuid?.() !== 0) return { system: null, problems: ['the daemon is not root'] };
  const problems: string[] = [];
  const tries = mode === 'auto' ? [tryV2, tryV1] : mode === 'v2' ? [tryV2] : [tryV1];
  for (const attempt of tries) {
    const got = await attempt(root);
    if (typeof got !== 'string') return { system: got, problems };
    problems.push(got);
  }
  return { system: null, problems };
}
