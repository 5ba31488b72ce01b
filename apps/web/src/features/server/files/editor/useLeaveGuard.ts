import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Holds back leaving the editor while there are unsaved changes. A click on a link to another
 * page of the app (a tab, the breadcrumb, the top bar) is stopped before the router sees it and
 * waits as `pending` until the user leaves anyway (`proceed`) or stays (`stay`); closing or
 * reloading the tab, or following a link out of the app, makes the browser ask.
 *
 * Links rather than the router's blocker: that hook would add to the code every page downloads
 * first, which the login page's size budget has no room for. History steps (the browser's back
 * button) are therefore not held back.
 *
 * `dirtyNow` is read at the moment of a click (it is current before React renders again); `dirty`
 * switches the browser's own prompt on and off.
 */
export function useLeaveGuard(dirtyNow: RefObject<boolean>, dirty: boolean) {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!dirtyNow.current || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return;
      if (link.target !== '' && link.target !== '_self') return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const to = `${url.pathname}${url.search}${url.hash}`;
      const { pathname, search, hash } = here.current;
      if (to === `${pathname}${search}${hash}`) return;
      // Capture phase on the document: this runs before React's handlers on the app's root.
      event.preventDefault();
      event.stopPropagation();
      setPending(to);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirtyNow]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium versions only ask when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return {
    pending: pending !== null,
    proceed: () => {
      if (pending === null) return;
      setPending(null);
      void navigate(pending);
    },
    stay: () => setPending(null),
  };
}
