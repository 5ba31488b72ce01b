/** Step multipliers tried, smallest first, for each 1024-power unit. */
const STEPS = [1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500];

/**
 * Tick positions for a byte axis from 0 to `max`: whole steps of a binary unit (512 B, 1 MB,
 * 256 MB…), so labels read `1 MB` and `512 kB` rather than uPlot's decimal `977 kB`. At most
 * `count` + 1 ticks.
 */
export function byteSplits(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const unit = 1024 ** Math.max(0, Math.floor(Math.log(max) / Math.log(1024)));
  // Powers of two of the unit below it too (512 kB, 256 kB…), then the decimal-looking steps.
  const steps = [0.125, 0.25, 0.5, ...STEPS].map((s) => s * unit).filter((s) => s >= 1);
  const step = steps.find((s) => max / s <= count) ?? max / count;
  const ticks: number[] = [];
  for (let value = 0; value <= max + 1e-9; value += step) ticks.push(value);
  return ticks;
}
