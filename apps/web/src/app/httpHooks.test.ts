import { afterEach, describe, expect, it, vi } from 'vitest';
import { http } from '../api/http.ts';
import { stubFetch } from '../test/render.tsx';
import { installHttpHooks, twoFactorRedirectTarget } from './httpHooks.ts';
import { useGlobalStore } from './store.ts';

describe('two-factor redirect rule', () => {
  it('redirects only on a 400 TwoFactorAuthRequiredException outside /account', () => {
    expect(twoFactorRedirectTarget(400, 'TwoFactorAuthRequiredException', '/')).toBe(true);
    expect(twoFactorRedirectTarget(400, 'TwoFactorAuthRequiredException', '/account')).toBe(false);
    expect(twoFactorRedirectTarget(400, 'TwoFactorAuthRequiredException', '/account/api')).toBe(false);
    expect(twoFactorRedirectTarget(400, 'DisplayException', '/')).toBe(false);
    expect(twoFactorRedirectTarget(403, 'TwoFactorAuthRequiredException', '/')).toBe(false);
  });
});

describe('installed hooks', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('navigate to /account with the flag and drive the progress bar', async () => {
    const navigate = vi.fn();
    installHttpHooks(navigate);
    const body = { errors: [{ code: 'TwoFactorAuthRequiredException', status: '400', detail: 'required' }] };
    vi.stubGlobal(
      'fetch',
      stubFetch([
        { status: 400, body },
        { status: 200, body: {} },
      ]).fn,
    );
    await http.get('/api/client').catch(() => undefined);
    expect(navigate).toHaveBeenCalledWith('/account', { state: { twoFactorRedirect: true } });
    expect(useGlobalStore.getState().twoFactorRequired).toBe(true);
    expect(useGlobalStore.getState().progress).toBe(100);

    useGlobalStore.getState().setProgress(undefined);
    await http.get('/api/client/servers/x/resources');
    expect(useGlobalStore.getState().progress).toBeUndefined();
  });
});
