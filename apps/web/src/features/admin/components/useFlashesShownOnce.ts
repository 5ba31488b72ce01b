import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useGlobalStore } from '../../../app/store.ts';
import { ADMIN_FLASH } from './AdminPage.tsx';

/**
 * The admin messages a page opens with (e.g. "Server x created…", set just before going to the new
 * server's page) are for that page: once the user moves on to another tab or page they are removed,
 * instead of following the user around the admin area. A message added while a page is open (e.g.
 * "deleted", set just before going back to the list) is the next page's opening message.
 */
export function useFlashesShownOnce(): void {
  const { pathname } = useLocation();
  const opened = useRef<{ pathname: string; ids: string[] } | null>(null);
  useEffect(() => {
    const previous = opened.current;
    // Same page: a query or a second run of the effect (StrictMode) keeps the messages.
    if (previous?.pathname === pathname) return;
    if (previous && previous.ids.length > 0) {
      const shown = new Set(previous.ids);
      useGlobalStore.setState((s) => ({ flashes: s.flashes.filter((f) => !shown.has(f.id)) }));
    }
    const ids = useGlobalStore
      .getState()
      .flashes.filter((f) => f.key === ADMIN_FLASH)
      .map((f) => f.id);
    opened.current = { pathname, ids };
  }, [pathname]);
}
