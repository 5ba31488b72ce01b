import { useCallback, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logout } from '../api/auth.ts';
import { SpinnerOverlay } from '../components/Spinner.tsx';
import { GridIcon, LogoutIcon, SearchIcon, ShieldIcon, UserIcon } from './Icons.tsx';
import { useGlobalStore } from './store.ts';
import { SearchModal, searchShortcutKeys, useSearchShortcut } from './SearchModal.tsx';
import { fullPage } from '../lib/navigation.ts';

const ITEM =
  'focus-ring flex h-full items-center gap-2 px-3 text-zinc-300 transition-colors hover:bg-zinc-800 hover:text-white sm:px-4';

/** Signed-in top bar (spec §2). The search icon (or meta + /, Ctrl + / off Apple systems) opens the server search. */
export function TopBar() {
  const { t } = useTranslation('common');
  const name = useGlobalStore((s) => s.settings.name);
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  const [leaving, setLeaving] = useState(false);
  const [searching, setSearching] = useState(false);
  const openSearch = useCallback(() => setSearching(true), []);
  useSearchShortcut(openSearch);

  const onLogout = () => {
    setLeaving(true);
    logout().then(
      () => fullPage.navigate('/'),
      () => fullPage.navigate('/'),
    );
  };

  return (
    <header className="sticky top-0 z-40 w-full border-b border-zinc-800 bg-zinc-900/95 backdrop-blur">
      <SpinnerOverlay visible={leaving} />
      <SearchModal visible={searching} onDismissed={() => setSearching(false)} />
      <div className="mx-auto flex h-14 max-w-[1200px] items-stretch">
        <Link
          to="/"
          className="focus-ring flex min-w-0 flex-1 items-center px-4 text-lg font-semibold tracking-tight text-zinc-100 sm:text-xl"
        >
          <span className="truncate">{name}</span>
        </Link>
        <nav aria-label={t('nav.main')} className="flex items-stretch">
          <button
            type="button"
            className={ITEM}
            aria-label={t('nav.search')}
            aria-keyshortcuts="Meta+/ Control+/"
            title={t('nav.search_shortcut', { keys: searchShortcutKeys() })}
            onClick={openSearch}
          >
            <SearchIcon />
          </button>
          <NavLink
            to="/"
            end
            className={({ isActive }) => `${ITEM} ${isActive ? 'bg-zinc-800 text-white' : ''}`}
            title={t('nav.dashboard')}
          >
            <GridIcon />
            <span className="sr-only md:not-sr-only">{t('nav.dashboard')}</span>
          </NavLink>
          <NavLink
            to="/account"
            className={({ isActive }) => `${ITEM} ${isActive ? 'bg-zinc-800 text-white' : ''}`}
            title={t('nav.account')}
          >
            <UserIcon />
            <span className="sr-only md:not-sr-only">{t('nav.account')}</span>
          </NavLink>
          {rootAdmin && (
            <NavLink
              to="/admin"
              className={({ isActive }) => `${ITEM} ${isActive ? 'bg-zinc-800 text-white' : ''}`}
              title={t('nav.admin')}
            >
              <ShieldIcon />
              <span className="sr-only md:not-sr-only">{t('nav.admin')}</span>
            </NavLink>
          )}
          <button type="button" className={ITEM} onClick={onLogout} title={t('nav.logout')}>
            <LogoutIcon />
            <span className="sr-only md:not-sr-only">{t('nav.logout')}</span>
          </button>
        </nav>
      </div>
    </header>
  );
}
