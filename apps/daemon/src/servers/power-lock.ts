/** One power action at a time per server; waiters give up after their own timeout. */
export class PowerLock {
  private held = false;
  private waiters: (() => void)[] = [];

  get isHeld(): boolean {
    return this.held;
  }

  /** Take the lock, waiting at most `waitMs` (0 = fail at once). Returns false on timeout. */
  async acquire(waitMs: number): Promise<boolean> {
    if (!this.held) {
      this.held = true;
      return true;
    }
    if (waitMs <= 0) return false;
    return new Promise((resolve) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== grant);
        resolve(false);
      }, waitMs);
      this.waiters.push(grant);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(); // hand over without ever appearing free
    else this.held = false;
  }
}
