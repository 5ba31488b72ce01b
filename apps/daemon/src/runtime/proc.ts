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

/** All live processes; cheap enough once a second for a node's worth of servers. */
export async function allStats(): Promise<ProcStat[]> {
  const names = await readdir('/proc');
  const stats = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readStat(Number(n))));
  return stats.filter((s): s is ProcStat => s !== null);
}

/** `root` and every process below it. */
export async function processTree(root: number): Promise<ProcStat[]> {
  const stats = await allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) {
    const list = children.get(s.ppid);
    if (list) list.push(s);
    else children.set(s.ppid, [s]);
  }
  const out: ProcStat[] = [];
  const rootStat = stats.find((s) => s.pid === root);
  if (!rootStat) return out;
  const queue = [rootStat];
  while (queue.length) {
    const s = queue.shift()!;
    out.push(s);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return out;
}

export function safeKill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
