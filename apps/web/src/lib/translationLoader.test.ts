import { describe, expect, it } from 'vitest';
import {
  isRetryableStatus,
  loadTranslations,
  retryDelay,
  TRANSLATION_CACHE_MS,
  translationUrl,
  type LoaderDeps,
} from './translationLoader.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    map,
  };
}

function deps(answers: { status: number; text: string }[], overrides: Partial<LoaderDeps> = {}) {
  const urls: string[] = [];
  const sleeps: number[] = [];
  const storage = memoryStorage();
  const d: LoaderDeps = {
    fetch: (url) => {
      urls.push(url);
      const answer = answers.shift() ?? { status: 500, text: '' };
      return Promise.resolve({ status: answer.status, text: () => Promise.resolve(answer.text) });
    },
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    storage,
    now: () => 1_000_000,
    version: 'v1',
    ...overrides,
  };
  return { d, urls, sleeps, storage };
}

describe('translation loading', () => {
  it('fetches /locales/{lng}/{ns}.json', async () => {
    const { d, urls } = deps([{ status: 200, text: '{"a":"b"}' }]);
    await expect(loadTranslations(d, 'en', 'auth')).resolves.toEqual({ a: 'b' });
    expect(urls).toEqual(['/locales/en/auth.json']);
    expect(translationUrl('en', 'common')).toBe('/locales/en/common.json');
  });

  it('retries 5xx up to 5 times with delays doubling from 250 ms', async () => {
    const { d, urls, sleeps } = deps(Array.from({ length: 6 }, () => ({ status: 503, text: '' })));
    await expect(loadTranslations(d, 'en', 'common')).rejects.toThrow('status 503');
    expect(urls).toHaveLength(6);
    expect(sleeps).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('succeeds after transient 5xx answers', async () => {
    const { d, sleeps } = deps([
      { status: 500, text: '' },
      { status: 502, text: '' },
      { status: 200, text: '{"ok":"yes"}' },
    ]);
    await expect(loadTranslations(d, 'en', 'common')).resolves.toEqual({ ok: 'yes' });
    expect(sleeps).toEqual([250, 500]);
  });

  it('does not retry a 4xx answer', async () => {
    const { d, urls, sleeps } = deps([{ status: 404, text: '' }]);
    await expect(loadTranslations(d, 'en', 'missing')).rejects.toThrow('status 404');
    expect(urls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry an unparseable file', async () => {
    const { d, urls } = deps([{ status: 200, text: '{not json' }]);
    await expect(loadTranslations(d, 'en', 'common')).rejects.toThrow('failed parsing');
    expect(urls).toHaveLength(1);
  });

  it('classifies statuses', () => {
    expect(isRetryableStatus(500)).toBe(true);
    expect(isRetryableStatus(599)).toBe(true);
    expect(isRetryableStatus(404)).toBe(false);
    expect(isRetryableStatus(200)).toBe(false);
    expect([0, 1, 2, 3, 4].map(retryDelay)).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('caches in storage for 7 days, per build', async () => {
    let now = 1_000_000;
    const first = deps([{ status: 200, text: '{"v":"1"}' }], { now: () => now });
    await loadTranslations(first.d, 'en', 'common');
    expect(TRANSLATION_CACHE_MS).toBe(604_800_000);

    // Within 7 days: served from storage, no request.
    const urls: string[] = [];
    const cached: LoaderDeps = { ...first.d, fetch: (u) => (urls.push(u), Promise.reject(new Error('no'))) };
    now += TRANSLATION_CACHE_MS - 1;
    await expect(loadTranslations(cached, 'en', 'common')).resolves.toEqual({ v: '1' });
    expect(urls).toEqual([]);

    // After 7 days: fetched again.
    now += 1;
    const refetch: LoaderDeps = {
      ...first.d,
      fetch: (u) => (
        urls.push(u),
        Promise.resolve({ status: 200, text: () => Promise.resolve('{"v":"2"}') })
      ),
    };
    await expect(loadTranslations(refetch, 'en', 'common')).resolves.toEqual({ v: '2' });
    expect(urls).toHaveLength(1);

    // Another build ignores the entry.
    await expect(loadTranslations({ ...refetch, version: 'v2' }, 'en', 'common')).resolves.toEqual({
      v: '2',
    });
    expect(urls).toHaveLength(2);
  });
});
