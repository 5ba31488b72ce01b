/** Time as the limiter sees it: injectable so tests can check the waits without waiting. */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The backup write limit (`system.backups.write_limit`, MiB/s): after each write, wait until the
 * bytes written so far are within what the limit allows for the time since the first write. A
 * limit of 0 never waits. Averaged over the whole backup, so a slow stretch (a directory full of
 * tiny files) may be followed by a faster one, never above the limit on average.
 */
export class WriteLimiter {
  private written = 0;
  private started: number | null = null;
  private readonly bytesPerMs: number;

  constructor(
    limitMiBps: number,
    private readonly clock: Clock = realClock,
  ) {
    this.bytesPerMs = (limitMiBps * 1024 * 1024) / 1000;
  }

  /** Account for `bytes` just written; resolves when the next write may go. */
  async wrote(bytes: number): Promise<void> {
    if (this.bytesPerMs <= 0) return;
    this.started ??= this.clock.now();
    this.written += bytes;
    const ahead = this.written / this.bytesPerMs - (this.clock.now() - this.started);
    if (ahead > 0) await this.clock.sleep(ahead);
  }
}
