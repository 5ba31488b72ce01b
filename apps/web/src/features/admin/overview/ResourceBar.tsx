import { UsageBar, usageOf } from '../components/UsageBar.tsx';

/**
 * Allocated vs capacity of a node (MiB), as a bar with the figures in words beside it. Servers
 * may be given more than the capacity (overallocation): the bar is then full and red.
 */
export function ResourceBar({ label, used, total }: { label: string; used: number; total: number }) {
  const usage = usageOf(used, total);
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-2 text-xs">
        <span className="text-zinc-400">{label}</span>
        <span
          className={usage.alarm ? 'text-red-300' : 'text-zinc-300'}
        >{`${usage.figures} (${usage.percent} %)`}</span>
      </div>
      <UsageBar label={label} usage={usage} />
    </div>
  );
}
