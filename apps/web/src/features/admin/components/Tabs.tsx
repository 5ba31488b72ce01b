import { useRef, type KeyboardEvent } from 'react';
import { NavLink } from 'react-router';

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
