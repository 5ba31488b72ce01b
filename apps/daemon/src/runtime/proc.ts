import { readdir, readFile } from 'node:fs/promises';

/** One line of /proc/<pid>/stat, the fields the runtime needs. */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  rssPages: number;
}

// USER_HZ is 100 on every Linux ABI Node supports; /proc reports ticks in it.
export const NS_PER_TICK = 10_000_000;
export const PAGE_SIZE = 4096;

export function parseStat(text: string): ProcStat | null {
  // comm is parenthesised and may itself contain spaces or parentheses: split at the last ')'.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: Number(rest[1]),
    cpuTicks: Number(rest[11]) + Number(rest[12]),
    rssPages: Number(rest[21]),
  };
}

export async function readStat(pid: number): Promise<ProcStat | null> {
  try {
    return parseStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // the process is gone
  }
}

/** All live processes: one pass over /proc. */
export async function allStats(): Promise<ProcStat[]> {
  const names = await readdir('/proc');
  const stats = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readStat(Number(n))));
  return stats.filter((s): s is ProcStat => s !== null);
}

/** Reads every live process; `allStats`, or a test's counting stand-in. */
export type ProcessScan = () => Promise<ProcStat[]>;

/** One snapshot of the host's processes, indexed to walk any process tree in it. */
export class ProcessTable {
  private readonly byPid = new Map<number, ProcStat>();
  private readonly children = new Map<number, ProcStat[]>();

  constructor(stats: ProcStat[]) {
    for (const s of stats) {
      this.byPid.set(s.pid, s);
      const list = this.children.get(s.ppid);
      if (list) list.push(s);
      else this.children.set(s.ppid, [s]);
    }
  }

  /** `root` and every process below it; empty when `root` is gone. */
  tree(root: number): ProcStat[] {
    const rootStat = this.byPid.get(root);
    if (!rootStat) return [];
    const out = [rootStat];
    for (let i = 0; i < out.length; i++) out.push(...(this.children.get(out[i]!.pid) ?? []));
    return out;
  }
}

/**
 * The process table, scanned at most once per `maxAgeMs` however many callers ask: the stats and
 * watchdog checks of every server on a tick (`ticker.ts`) share one pass over /proc, instead of
 * each server scanning all of /proc for its own tree.
 */
export class SharedProcessTable {
  private snapshot: { at: number; table: Promise<ProcessTable> } | null = null;

  constructor(
    private readonly maxAgeMs = 200,
    private readonly scan: ProcessScan = allStats,
  ) {}

  read(): Promise<ProcessTable> {
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.at < this.maxAgeMs) return this.snapshot.table;
    const table = this.scan().then((stats) => new ProcessTable(stats));
    this.snapshot = { at: now, table };
    return table;
  }
}

/** `root` and every process below it, from a fresh scan (signals and kills must not act on old data). */
export async function processTree(root: number): Promise<ProcStat[]> {
  return new ProcessTable(await allStats()).tree(root);
}

export function safeKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
