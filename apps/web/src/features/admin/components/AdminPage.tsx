import type { ReactNode } from 'react';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { useTitle } from '../../../lib/useTitle.ts';

/** Flash key of the admin area: every admin page shows these above its content. */
export const ADMIN_FLASH = 'admin';

/** One admin screen: its heading, a line saying what it is for, buttons on the right, then content. */
export function AdminPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useTitle(`${title} · Admin`);
  return (
    <div className="min-w-0 space-y-5">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold text-zinc-100 sm:text-2xl">{title}</h1>
          {description && <p className="mt-1 text-sm text-zinc-400">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </header>
      <FlashMessageRender byKey={ADMIN_FLASH} />
      {children}
    </div>
  );
}
