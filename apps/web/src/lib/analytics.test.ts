import { afterEach, describe, expect, it } from 'vitest';
import { trackPageView } from './analytics.ts';

afterEach(() => {
  delete window.gtag;
  delete window.dataLayer;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('trackPageView', () => {
  it('does nothing without a configured id', () => {
    expect(trackPageView(undefined, '/')).toBe(false);
    expect(window.gtag).toBeUndefined();
    expect(document.head.querySelector('script')).toBeNull();
  });
  it('loads the tag once and records each page view', () => {
    expect(trackPageView('G-TEST', '/')).toBe(true);
    expect(trackPageView('G-TEST', '/account')).toBe(true);
    expect(document.head.querySelectorAll('script[src*="googletagmanager"]')).toHaveLength(1);
    const calls = (window.dataLayer ?? []) as unknown[][];
    expect(calls.filter((c) => c[0] === 'config').map((c) => c[2])).toEqual([
      { page_path: '/' },
      { page_path: '/account' },
    ]);
  });
});
