import type { ReactNode } from 'react';

export type MessageType = 'error' | 'info' | 'success' | 'warning';

const STYLES: Record<MessageType, { box: string; badge: string }> = {
  error: { box: 'border-red-500/60 bg-red-950/60 text-red-100', badge: 'bg-red-500 text-red-950' },
  info: { box: 'border-sky-500/60 bg-sky-950/60 text-sky-100', badge: 'bg-sky-500 text-sky-950' },
  success: {
    box: 'border-emerald-500/60 bg-emerald-950/60 text-emerald-100',
    badge: 'bg-emerald-500 text-emerald-950',
  },
  warning: {
    box: 'border-amber-500/60 bg-amber-950/60 text-amber-100',
    badge: 'bg-amber-400 text-amber-950',
  },
};

/** An alert with an optional title badge; each type has its own colour (spec §2). */
export function MessageBox({
  type,
  title,
  children,
}: {
  type: MessageType;
  title?: string;
  children: ReactNode;
}) {
  const style = STYLES[type];
  return (
    <div
      role={type === 'error' || type === 'warning' ? 'alert' : 'status'}
      data-type={type}
      className={`flex flex-col gap-2 rounded-md border px-4 py-3 text-sm sm:flex-row sm:items-center ${style.box}`}
    >
      {title && (
        <span
          className={`self-start rounded px-2 py-0.5 text-xs font-bold tracking-wide uppercase sm:self-auto ${style.badge}`}
        >
          {title}
        </span>
      )}
      <span className="min-w-0 break-words">{children}</span>
    </div>
  );
}
