import type { LiveStats } from './store.ts';

/** Samples kept for the graphs: the daemon reports about every second, so a few minutes. */
export const HISTORY_POINTS = 180;

export interface StatsHistory {
  /** Seconds since the epoch, as uPlot expects on its x axis. */
  time: number[];
  cpu: number[];
  memory: number[];
  rx: number[];
  tx: number[];
}

export function emptyHistory(): StatsHistory {
  return { time: [], cpu: [], memory: [], rx: [], tx: [] };
}

/**
 * Adds one sample. Network counters are cumulative on the wire; the graph shows bytes per second
 * between samples (0 for the first sample and when a counter restarts).
 */
export function appendSample(
  history: StatsHistory,
  stats: LiveStats,
  previous: LiveStats | null,
  atMs: number,
): StatsHistory {
  const t = atMs / 1000;
  const last = history.time[history.time.length - 1];
  const dt = last === undefined ? 0 : t - last;
  const rate = (now: number, before: number | undefined) =>
    dt > 0 && before !== undefined && now >= before ? (now - before) / dt : 0;
  const cut = (list: number[], value: number) => [...list, value].slice(-HISTORY_POINTS);
  return {
    time: cut(history.time, t),
    cpu: cut(history.cpu, stats.cpuAbsolute),
    memory: cut(history.memory, stats.memoryBytes),
    rx: cut(history.rx, rate(stats.rxBytes, previous?.rxBytes)),
    tx: cut(history.tx, rate(stats.txBytes, previous?.txBytes)),
  };
}
