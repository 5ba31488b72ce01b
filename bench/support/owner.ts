// Nothing a benchmark starts may outlive it. The benchmark sets BENCH_OWNER_PID to its own pid before
// it starts helper scripts, and each helper calls `exitWithOwner`. `startScript` runs a helper under
// a tsx wrapper, so the helper's parent process is that wrapper and not the benchmark: watching the
// parent pid alone is not enough.

/** Marks this process as the owner of the helpers it starts from now on. */
export function ownHelpers(): void {
  process.env.BENCH_OWNER_PID ??= String(process.pid);
}

/** Calls `stop` once the owner (or, without one, this process's parent) has gone. */
export function exitWithOwner(stop: () => void): void {
  const owner = Number(process.env.BENCH_OWNER_PID ?? 0);
  const parent = process.ppid;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  setInterval(() => {
    if ((owner && !alive(owner)) || process.ppid !== parent) stop();
  }, 500).unref();
}
