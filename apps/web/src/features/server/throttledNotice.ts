import { useGlobalStore } from '../../app/store.ts';

/** The flash key of the notice: the console page shows this key's flash. */
export const THROTTLED_FLASH_KEY = 'server:throttled';
/** What a player reads when the daemon ignored some of their messages (protocol §9.2b `throttled`). */
export const THROTTLED_TEXT = 'Slow down: some of your actions were ignored.';
/** How long the notice stays; `throttled` events meanwhile add nothing, so it never floods. */
export const THROTTLED_NOTICE_MS = 5000;

/**
 * One line in the app's flash area, for a few seconds, when the daemon (or the page itself) drops
 * a message over the limits. `hide` takes it away at once (the user left the server).
 */
export function throttledNotice(): { show: () => void; hide: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const hide = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    useGlobalStore.getState().clearFlashes(THROTTLED_FLASH_KEY);
  };
  const show = () => {
    if (timer) return;
    useGlobalStore.getState().addFlash({ key: THROTTLED_FLASH_KEY, type: 'info', message: THROTTLED_TEXT });
    timer = setTimeout(hide, THROTTLED_NOTICE_MS);
  };
  return { show, hide };
}
