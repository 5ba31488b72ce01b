import { Jail } from './jail.ts';

/**
 * Sum of the sizes of regular files below `root`, walked by descriptor (links are neither followed
 * nor counted, and a directory swapped for a link midway is not entered). A missing root is 0.
 */
export async function walkSize(root: string): Promise<number> {
  try {
    return (await new Jail(root).usage()).bytes;
  } catch {
    return 0; // vanished or unreadable
  }
}

/**
 * A server's disk usage, cached. Stats ticks read the cached value; a walk runs at most once per
 * `intervalSeconds` (in the background), or on demand before a start with a disk limit. Only one
 * walk runs at a time.
 */
export class DiskUsage {
  private bytes = 0;
  private lastWalk = 0;
  private running: Promise<number> | null = null;

  constructor(
    private readonly root: string,
    private readonly intervalSeconds: number,
  ) {}

  get cached(): number {
    return this.bytes;
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
    return this.bytes;
  }

  /** Account for the daemon's own write or delete between walks (never below 0). */
  adjust(deltaBytes: number): void {
    this.bytes = Math.max(0, this.bytes + deltaBytes);
  }

  /** Walk now (or join the walk in progress) and return the fresh value. */
  refresh(): Promise<number> {
    if (this.intervalSeconds === 0) return Promise.resolve(0);
    this.running ??= walkSize(this.root)
      .then((n) => {
        this.bytes = n;
        this.lastWalk = Date.now();
        return n;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
