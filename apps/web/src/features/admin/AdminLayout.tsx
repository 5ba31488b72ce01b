import { useId, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFlashesShownOnce } from './components/useFlashesShownOnce.ts';
import { ADMIN_NAV, currentNavItem } from './nav.ts';

const LINK = 'focus-ring block rounded-md px-3 py-2 text-sm transition-colors';

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <div className="space-y-5">
      {ADMIN_NAV.map(({ section, items }) => (
        <div key={section}>
          <p className="mb-1 px-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            {t(section)}
          </p>
          <ul className="space-y-0.5">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  onClick={onNavigate}
                  className={({ isActive }) =>
                    `${LINK} ${isActive ? 'bg-zinc-800 font-medium text-white' : 'text-zinc-400 hover:bg-zinc-800/60 hover:text-zinc-100'}`
                  }
                >
                  {t(item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The admin area's frame: a side navigation on wide screens; on a phone a "Menu" button naming the
 * current page that opens the same links. NavLink marks the current page with aria-current.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const current = currentNavItem(pathname);
  useFlashesShownOnce();

  return (
    <div className="mx-auto w-full max-w-[1400px] px-4 py-4 sm:px-6 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8 lg:py-6">
      <nav aria-label={t('nav.label')} className="hidden lg:block">
        <div className="sticky top-20">
          <NavLinks />
        </div>
      </nav>
      <div className="mb-4 lg:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
          className="focus-ring flex w-full items-center justify-between rounded-md border border-zinc-800 bg-zinc-900 px-3 py-2 text-sm text-zinc-200"
        >
          <span>
            <span className="text-zinc-400">{t('nav.menu')}: </span>
            {current ? t(current.label) : t('nav.label')}
          </span>
          <span aria-hidden="true">{open ? '▲' : '▼'}</span>
        </button>
        {open && (
          <nav
            id={menuId}
            aria-label={t('nav.label')}
            className="mt-2 rounded-md border border-zinc-800 bg-zinc-900 p-2"
          >
            <NavLinks onNavigate={() => setOpen(false)} />
          </nav>
        )}
      </div>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
