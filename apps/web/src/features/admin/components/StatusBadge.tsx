import type { ReactNode } from 'react';

export type BadgeTone = 'ok' | 'warning' | 'error' | 'info' | 'neutral';

const TONES: Record<BadgeTone, string> = {
  ok: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-300',
  warning: 'border-amber-500/40 bg-amber-500/10 text-amber-300',
  error: 'border-red-500/40 bg-red-500/10 text-red-300',
  info: 'border-sky-500/40 bg-sky-500/10 text-sky-300',
  neutral: 'border-zinc-600 bg-zinc-800 text-zinc-300',
};

const DOTS: Record<BadgeTone, string> = {
  ok: 'bg-emerald-400',
  warning: 'bg-amber-400',
  error: 'bg-red-400',
  info: 'bg-sky-400',
  neutral: 'bg-zinc-400',
};

/** A short state in words (Online, Suspended, Installing…) with a colour; the words carry the meaning. */
export function StatusBadge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      data-tone={tone}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[tone]}`}
    >
      <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${DOTS[tone]}`} />
      {children}
    </span>
  );
}
