import { setHttpHooks } from '../api/http.ts';
import { progressRequestEnded, progressRequestStarted } from './progress.ts';
import { useGlobalStore } from './store.ts';

/** `TwoFactorAuthRequiredException` → /account with the flag, unless already there (spec §4). */
export function twoFactorRedirectTarget(
  status: number | null,
  code: string | null,
  pathname: string,
): boolean {
  return status === 400 && code === 'TwoFactorAuthRequiredException' && !pathname.startsWith('/account');
}

export function installHttpHooks(navigate: (to: string, options: { state: unknown }) => void): void {
  setHttpHooks({
    onStart: progressRequestStarted,
    onEnd: progressRequestEnded,
    onError: (error) => {
      if (error.status === 400 && error.code === 'TwoFactorAuthRequiredException') {
        useGlobalStore.getState().setTwoFactorRequired(true);
      }
      if (twoFactorRedirectTarget(error.status, error.code, window.location.pathname)) {
        navigate('/account', { state: { twoFactorRedirect: true } });
      }
    },
  });
}
