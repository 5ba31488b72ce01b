import type { ReactNode } from 'react';
import { FlashMessageRender } from '../app/FlashMessageRender.tsx';
import { useTitle } from '../lib/useTitle.ts';

/** A signed-in page: sets the document title, shows the page's flashes, constrains the width. */
export function PageContent({
  title,
  flashKey,
  children,
}: {
  title: string;
  flashKey?: string;
  children: ReactNode;
}) {
  useTitle(title);
  return (
    <div className="mx-auto w-full max-w-[1200px] px-4 py-6 sm:px-6">
      {flashKey !== undefined && <FlashMessageRender byKey={flashKey} className="mb-4" />}
      {children}
    </div>
  );
}
