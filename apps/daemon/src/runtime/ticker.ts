/**
 * Periodic work of every server from one timer per period: the servers' stats samples (and the
 * process driver's watchdog checks) then run in the same moment and share one /proc scan
 * (`SharedProcessTable`), and 50 servers cost one timer, not 50.
 */
export class Ticker {
  private readonly periods = new Map<number, { timer: NodeJS.Timeout; jobs: Set<() => void> }>();

  /** Runs `job` every `ms` until the returned function is called. Jobs must not throw. */
  every(ms: number, job: () => void): () => void {
    let period = this.periods.get(ms);
    if (!period) {
      const jobs = new Set<() => void>();
      const timer = setInterval(() => {
        for (const j of jobs) j();
      }, ms);
      period = { timer, jobs };
      this.periods.set(ms, period);
    }
    const own = () => job(); // a job added twice runs twice
    period.jobs.add(own);
    return () => {
      const current = this.periods.get(ms);
      if (!current?.jobs.delete(own) || current.jobs.size > 0) return;
      clearInterval(current.timer);
      this.periods.delete(ms);
    };
  }
}

/** The daemon's ticker. */
export const ticker = new Ticker();
