import { readdirSync, readFileSync } from 'node:fs';

/** What /proc says about one process (Linux only, like the daemon). */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  cmdline: string;
}

function read(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces or parentheses itself.
    const [state = '', ppid = '0', pgrp = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(ppid), pgrp: Number(pgrp), state, cmdline };
  } catch {
    return null; // gone while we looked
  }
}

export function allProcesses(): ProcInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/u.test(name))
    .map((name) => read(Number(name)))
    .filter((p): p is ProcInfo => p !== null);
}

/** Every process below `pid` (children, grandchildren…). */
export function descendantsOf(pid: number): ProcInfo[] {
  const all = allProcesses();
  const found: ProcInfo[] = [];
  let parents = new Set([pid]);
  while (parents.size > 0) {
    const next = all.filter((p) => parents.has(p.ppid));
    found.push(...next);
    parents = new Set(next.map((p) => p.pid));
  }
  return found;
}

/** The processes (zombies included) of a process group. */
export function groupMembers(pgid: number): ProcInfo[] {
  return allProcesses().filter((p) => p.pgrp === pgid);
}

/** A process's environment as the kernel holds it. */
export function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}
