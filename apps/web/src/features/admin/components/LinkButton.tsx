import type { ReactNode } from 'react';
import { Link } from 'react-router';

const STYLES = {
  primary: 'bg-sky-600 text-white hover:bg-sky-500',
  secondary: 'bg-zinc-700 text-zinc-100 hover:bg-zinc-600',
} as const;

/** A link that looks like a button ("Create user" on a list page). */
export function LinkButton({
  to,
  children,
  variant = 'primary',
  newTab = false,
}: {
  to: string;
  children: ReactNode;
  variant?: keyof typeof STYLES;
  newTab?: boolean;
}) {
  return (
    <Link
      to={to}
      target={newTab ? '_blank' : undefined}
      rel={newTab ? 'noreferrer' : undefined}
      className={`focus-ring inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-colors ${STYLES[variant]}`}
    >
      {children}
    </Link>
  );
}
