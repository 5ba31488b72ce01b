import { isResourceAlarm } from '@talon/shared/format/limits';
import { formatMib } from '../format.ts';

/** Allocated of capacity (MiB) in figures, e.g. `2 GB / 8 GB`, with its percentage and alarm. */
export function usageOf(used: number, total: number) {
  return {
    percent: total > 0 ? Math.round((used / total) * 100) : 0,
    alarm: isResourceAlarm(used, total),
    figures: `${formatMib(used)} / ${formatMib(total)}`,
  };
}

/**
 * The bar of a node's allocated vs capacity. Servers may be given more than the capacity
 * (overallocation): the bar is then full and red.
 */
export function UsageBar({
  label,
  usage,
  thin = false,
}: {
  label: string;
  usage: ReturnType<typeof usageOf>;
  thin?: boolean;
}) {
  const { percent, alarm, figures } = usage;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(percent, 100)}
      aria-valuetext={`${figures} (${percent} %)`}
      className={`${thin ? 'h-1.5' : 'h-2'} overflow-hidden rounded-full bg-zinc-800`}
    >
      <div
        className={`h-full rounded-full ${alarm ? 'bg-red-500' : 'bg-sky-500'}`}
        style={{ width: `${Math.min(percent, 100)}%` }}
      />
    </div>
  );
}
