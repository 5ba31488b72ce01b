import { execFile } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import { HOST_ENV } from './host-env.ts';

/**
 * Network use of a server's processes. Servers share the host's network (they bind the host's
 * ports), so there is no per-server interface to read. Instead the kernel's per-socket TCP counters
 * (`ss -tie`: bytes_received, bytes_acked) are summed over the sockets the server's processes hold
 * open (`/proc/<pid>/fd` → `socket:[inode]`). UDP has no such counters and is not counted.
 */

export interface SocketBytes {
  rx: number;
  tx: number;
}

/** `ss -tieH` output → bytes per socket inode. A socket's details continue on indented lines. */
export function parseSocketTable(text: string): Map<number, SocketBytes> {
  const table = new Map<number, SocketBytes>();
  let current: number | null = null;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (!/^\s/u.test(line)) {
      const ino = /\bino:(\d+)/u.exec(line);
      current = ino ? Number(ino[1]) : null;
      if (current !== null && current !== 0) table.set(current, { rx: 0, tx: 0 });
    }
    if (current === null || current === 0) continue;
    const entry = table.get(current)!;
    const rx = /\bbytes_received:(\d+)/u.exec(line);
    const tx = /\bbytes_acked:(\d+)/u.exec(line);
    if (rx) entry.rx = Number(rx[1]);
    if (tx) entry.tx = Number(tx[1]);
  }
  return table;
}

/** Inodes of the sockets the given processes hold open. */
export async function socketInodes(pids: number[]): Promise<Set<number>> {
  const inodes = new Set<number>();
  await Promise.all(
    pids.map(async (pid) => {
      let fds: string[];
      try {
        fds = await readdir(`/proc/${pid}/fd`);
      } catch {
        return; // gone, or not ours to read
      }
      await Promise.all(
        fds.map(async (fd) => {
          try {
            const m = /^socket:\[(\d+)\]$/u.exec(await readlink(`/proc/${pid}/fd/${fd}`));
            if (m) inodes.add(Number(m[1]));
          } catch {
            // closed meanwhile
          }
        }),
      );
    }),
  );
  return inodes;
}

/**
 * The host's TCP socket table, read at most once per `maxAgeMs` however many servers ask (one
 * `ss` run per stats tick for the whole node). Without `ss` the table is empty.
 */
export class SocketTable {
  private snapshot: { at: number; table: Promise<Map<number, SocketBytes>> } | null = null;
  private missing = false;

  constructor(
    private readonly maxAgeMs = 500,
    private readonly command = 'ss',
  ) {}

  read(): Promise<Map<number, SocketBytes>> {
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.at < this.maxAgeMs) return this.snapshot.table;
    const table = this.missing ? Promise.resolve(new Map<number, SocketBytes>()) : this.run();
    this.snapshot = { at: now, table };
    return table;
  }

  private run(): Promise<Map<number, SocketBytes>> {
    return new Promise((resolve) => {
      execFile(
        this.command,
        ['-tieH'],
        { maxBuffer: 64 * 1024 * 1024, env: { ...HOST_ENV } },
        (err, stdout) => {
          if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') this.missing = true;
          resolve(err ? new Map() : parseSocketTable(stdout));
        },
      );
    });
  }
}

/**
 * Running totals for one server: bytes moved by sockets it holds now, plus what sockets it has
 * since closed had moved when last seen. Totals only grow.
 */
export class NetworkCounter {
  private last = new Map<number, SocketBytes>();
  private total: SocketBytes = { rx: 0, tx: 0 };

  update(table: Map<number, SocketBytes>, inodes: Set<number>): SocketBytes {
    const next = new Map<number, SocketBytes>();
    for (const ino of inodes) {
      const now = table.get(ino);
      if (!now) continue; // not TCP (UDP, unix) or not in this snapshot
      const before = this.last.get(ino) ?? { rx: 0, tx: 0 };
      this.total.rx += Math.max(0, now.rx - before.rx);
      this.total.tx += Math.max(0, now.tx - before.tx);
      next.set(ino, now);
    }
    this.last = next;
    return { ...this.total };
  }
}
