import type { ReactNode } from 'react';
import { SpinnerOverlay } from './Spinner.tsx';

/** A titled panel; the account screens are made of these. */
export function ContentBox({
  title,
  children,
  busy = false,
  className = '',
}: {
  title?: string;
  children: ReactNode;
  busy?: boolean;
  className?: string;
}) {
  return (
    <section className={`flex flex-col ${className}`} aria-label={title}>
      {title && <h2 className="mb-2 px-1 text-base font-semibold text-zinc-200">{title}</h2>}
      <div className="relative flex-1 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm sm:p-5">
        <SpinnerOverlay visible={busy} />
        {children}
      </div>
    </section>
  );
}
