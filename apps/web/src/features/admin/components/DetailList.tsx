import type { ReactNode } from 'react';

/** Label/value pairs of one item, two columns on wide screens, stacked on a phone. */
export function DetailList({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">{label}</dt>
          <dd className="mt-0.5 break-words text-zinc-100">{value === '' || value === null ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
