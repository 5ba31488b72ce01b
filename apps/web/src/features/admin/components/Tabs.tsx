import { useEffect, useRef, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from 'react-router';

export interface TabLink {
  /** Absolute address, e.g. `/admin/servers/view/7/build` (relative links in splat routes are easy to get wrong). */
  to: string;
  label: string;
  /** Match the address exactly (the index tab). */
  end?: boolean;
}

const TAB =
  'focus-ring -mb-px border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors sm:px-4';

/**
 * A page's tabs as links (each tab has an address). Tab moves into and out of the bar; the arrow
 * keys, Home and End move between tabs. The current tab is marked with aria-current.
 */
export function Tabs({ label, tabs }: { label: string; tabs: TabLink[] }) {
  const bar = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // On a phone the bar scrolls sideways: keep the current tab in view (e.g. the last one), also
  // when the window becomes narrower.
  useEffect(() => {
    const reveal = () => {
      const nav = bar.current;
      const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!nav || !current || typeof nav.scrollTo !== 'function') return;
      const left = current.offsetLeft - nav.offsetLeft;
      if (left + current.offsetWidth > nav.scrollLeft + nav.clientWidth || left < nav.scrollLeft)
        nav.scrollTo({ left: Math.max(0, left - 16) });
    };
    reveal();
    window.addEventListener('resize', reveal);
    return () => window.removeEventListener('resize', reveal);
  }, [pathname]);

  const onKeyDown = (event: KeyboardEvent) => {
    const links = [...(bar.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (index === -1) return;
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % links.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + links.length) % links.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? links.length - 1
              : null;
    if (target === null) return;
    event.preventDefault();
    links[target]?.focus();
  };

  return (
    <nav
      ref={bar}
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex overflow-x-auto border-b border-zinc-800"
    >
      {tabs.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          end={tab.end}
          className={({ isActive }) =>
            `${TAB} ${isActive ? 'border-sky-400 text-white' : 'border-transparent text-zinc-400 hover:text-zinc-200'}`
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
