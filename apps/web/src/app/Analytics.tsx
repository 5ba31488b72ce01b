import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { trackPageView } from '../lib/analytics.ts';
import { useGlobalStore } from './store.ts';

/** Fires a page view on each navigation, only if analytics is configured. */
export function Analytics() {
  const id = useGlobalStore((s) => s.settings.analytics);
  const { pathname, search } = useLocation();
  useEffect(() => {
    trackPageView(id, pathname + search);
  }, [id, pathname, search]);
  return null;
}
