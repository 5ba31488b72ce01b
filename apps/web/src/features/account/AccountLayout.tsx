import { NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';

const TAB = 'focus-ring -mb-px border-b-2 px-4 py-3 text-sm font-medium whitespace-nowrap transition-colors';

/** The account sub-navigation, on every path under /account (spec §2). */
export function AccountLayout() {
  const { t } = useTranslation('common');
  return (
    <>
      <nav aria-label={t('nav.account_sections')} className="border-b border-zinc-800 bg-zinc-900/60">
        <div className="mx-auto flex max-w-[1200px] flex-wrap px-2 sm:px-4">
          {[
            { to: '/account', label: t('nav.settings'), end: true },
            { to: '/account/api', label: t('nav.api_credentials'), end: false },
            { to: '/account/ssh', label: t('nav.ssh_keys'), end: false },
            { to: '/account/activity', label: t('nav.activity'), end: false },
          ].map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                `${TAB} ${isActive ? 'border-sky-400 text-white' : 'border-transparent text-zinc-400 hover:text-zinc-200'}`
              }
            >
              {item.label}
            </NavLink>
          ))}
        </div>
      </nav>
      <Outlet />
    </>
  );
}
