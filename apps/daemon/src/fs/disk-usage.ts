import type { Stats } from 'node:fs';
import { Jail } from './jail.ts';

/** How a staged file is known to the walk: its inode (the name is the user's to choose). */
export function stagedKey(st: Pick<Stats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}

/**
 * Sum of the sizes of regular files below `root`, walked by descriptor (links are neither followed
 * nor counted, and a directory swapped for a link midway is not entered); files `skip` names are
 * left out. A missing root is 0.
 */
export async function walkSize(root: string, skip?: (st: Stats) => boolean): Promise<number> {
  try {
    return (await new Jail(root).usage(skip)).bytes;
  } catch {
    return 0; // vanished or unreadable
  }
}

/**
 * A server's disk usage, cached. Stats ticks read the cached value; a walk runs at most once per
 * `intervalSeconds` (in the background), or on demand before a start with a disk limit. Only one
 * walk runs at a time.
 *
 * Files being staged (an upload still arriving, `ServerFiles.stage`) are counted by their writer
 * as their bytes arrive (`hold`), not by the walk: the walk skips their inodes, so a walk that runs
 * mid-upload and the upload's own accounting never count the same bytes twice. Skipping by inode,
 * not by the temporary name, keeps a user's own file with such a name inside the quota.
 */
export class DiskUsage {
  private bytes = 0;
  private lastWalk = 0;
  private running: Promise<number> | null = null;
  /** Staged files in flight: their key → the bytes they add once in place (may be negative). */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly intervalSeconds: number,
  ) {}

  private get total(): number {
    let n = this.bytes;
    for (const h of this.held.values()) n += h;
    return Math.max(0, n);
  }

  get cached(): number {
    return this.total;
  }

  /** Trigger a background walk if the cache is older than the interval. */
  refreshIfStale(): void {
    if (this.intervalSeconds === 0) return;
    if (Date.now() - this.lastWalk >= this.intervalSeconds * 1000) void this.refresh();
  }

  /**
   * The usage for a quota check: the cached value while it is fresh, else a walk (awaited). With
   * walking disabled (interval 0) usage is 0, as Wings reports it.
   */
  async current(): Promise<number> {
    if (this.intervalSeconds === 0) return 0;
    if (this.lastWalk === 0 || Date.now() - this.lastWalk >= this.intervalSeconds * 1000)
      return this.refresh();
    return this.total;
  }

  /**
   * The usage a quota check sees at this moment, without waiting (after `current()` has made the
   * cache fresh): checking and counting with no wait between keeps concurrent writes in turn.
   */
  now(): number {
    return this.intervalSeconds === 0 ? 0 : this.total;
  }

  /** Account for the daemon's own write or delete between walks (never below 0). */
  adjust(deltaBytes: number): void {
    this.bytes = Math.max(0, this.bytes + deltaBytes);
  }

  /** Count `deltaBytes` more for the staged file `key` (the walk leaves that inode out). */
  hold(key: string, deltaBytes: number): void {
    this.held.set(key, (this.held.get(key) ?? 0) + deltaBytes);
  }

  /** The staged file `key` is in place or gone: stop counting it here. */
  release(key: string): void {
    this.held.delete(key);
  }

  /** Walk now (or join the walk in progress) and return the fresh value. */
  refresh(): Promise<number> {
    if (this.intervalSeconds === 0) return Promise.resolve(0);
    this.running ??= walkSize(this.root, (st) => this.held.has(stagedKey(st)))
      .then((n) => {
        this.bytes = n;
        this.lastWalk = Date.now();
      })
      .finally(() => {
        this.running = null;
      })
      .then(() => this.total);
    return this.running;
  }
}
