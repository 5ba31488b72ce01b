import { isResourceAlarm } from '@talon/shared/format/limits';
import { formatMib } from '../format.ts';

/**
 * Allocated vs capacity of a node (MiB), as a bar with the figures in words beside it. Servers
 * may be given more than the capacity (overallocation): the bar is then full and red.
 */
export function ResourceBar({ label, used, total }: { label: string; used: number; total: number }) {
  const percent = total > 0 ? Math.round((used / total) * 100) : 0;
  const alarm = isResourceAlarm(used, total);
  const text = `${formatMib(used)} / ${formatMib(total)} (${percent} %)`;
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-2 text-xs">
        <span className="text-zinc-400">{label}</span>
        <span className={alarm ? 'text-red-300' : 'text-zinc-300'}>{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(percent, 100)}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-zinc-800"
      >
        <div
          className={`h-full rounded-full ${alarm ? 'bg-red-500' : 'bg-sky-500'}`}
          style={{ width: `${Math.min(percent, 100)}%` }}
        />
      </div>
    </div>
  );
}
