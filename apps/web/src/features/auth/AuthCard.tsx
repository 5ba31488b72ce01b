import type { ReactNode } from 'react';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { useTitle } from '../../lib/useTitle.ts';

/** The card every sign-in screen is drawn in. */
export function AuthCard({
  title,
  heading,
  children,
}: {
  title: string;
  heading: string;
  children: ReactNode;
}) {
  useTitle(title);
  return (
    <div>
      <h1 className="mb-4 text-center text-xl font-semibold text-zinc-200">{heading}</h1>
      <FlashMessageRender className="mb-4" />
      <div className="relative rounded-lg border border-zinc-800 bg-zinc-900/80 p-6 shadow-xl">
        {children}
      </div>
    </div>
  );
}

export const AUTH_LINK =
  'focus-ring rounded text-xs tracking-wide text-zinc-400 uppercase hover:text-zinc-200';
