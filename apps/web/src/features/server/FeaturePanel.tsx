import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The frame of an egg feature panel on the console page: a titled section, amber while it needs
 * the user (`attention`), scrolled into view when `reveal` becomes true (the server just said it
 * needs something).
 */
export function FeaturePanel({
  id,
  title,
  attention,
  reveal,
  children,
}: {
  id: string;
  title: string;
  attention: boolean;
  reveal: boolean;
  children: ReactNode;
}) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (reveal) section.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [reveal]);
  return (
    <section
      ref={section}
      aria-labelledby={`${id}-title`}
      data-testid={`${id}-panel`}
      className={`rounded-lg border p-4 ${
        attention ? 'border-amber-700/60 bg-amber-950/30' : 'border-zinc-800 bg-zinc-900/80'
      }`}
    >
      <h3 id={`${id}-title`} className={`font-medium ${attention ? 'text-amber-200' : 'text-zinc-200'}`}>
        {title}
      </h3>
      {children}
    </section>
  );
}
