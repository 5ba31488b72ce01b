/**
 * Fetching and caching of translation files (spec §7, §8, §9): `/locales/{lng}/{ns}.json`, kept in
 * localStorage for 7 days; a 5xx answer is retried up to 5 times with a delay doubling from 250 ms;
 * a 4xx answer or an unparseable file is not retried. Nothing is shown to the user on failure.
 */
export const TRANSLATION_CACHE_MS = 604_800_000;
export const TRANSLATION_MAX_RETRIES = 5;
export const TRANSLATION_FIRST_DELAY_MS = 250;

export type Translations = Record<string, unknown>;

export interface LoaderDeps {
  fetch: (url: string) => Promise<{ status: number; text: () => Promise<string> }>;
  sleep: (ms: number) => Promise<void>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  /** Build id; entries written by another build are ignored. */
  version: string;
}

/** Delay before retry number `retry` (0-based): 250, 500, 1000, 2000, 4000 ms. */
export function retryDelay(retry: number): number {
  return TRANSLATION_FIRST_DELAY_MS * 2 ** retry;
}

export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status < 600;
}

export class TranslationLoadError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'TranslationLoadError';
    this.retryable = retryable;
  }
}

export function translationUrl(lng: string, ns: string): string {
  return `/locales/${encodeURIComponent(lng)}/${encodeURIComponent(ns)}.json`;
}

function cacheKey(lng: string, ns: string): string {
  return `talon_i18n:${lng}:${ns}`;
}

interface CacheEntry {
  version: string;
  storedAt: number;
  data: Translations;
}

export function readCache(deps: LoaderDeps, lng: string, ns: string): Translations | null {
  try {
    const raw = deps.storage?.getItem(cacheKey(lng, ns));
    if (!raw) return null;
    const entry = JSON.parse(raw) as CacheEntry;
    if (entry.version !== deps.version) return null;
    if (deps.now() - entry.storedAt >= TRANSLATION_CACHE_MS) return null;
    return entry.data;
  } catch {
    return null;
  }
}

function writeCache(deps: LoaderDeps, lng: string, ns: string, data: Translations): void {
  try {
    const entry: CacheEntry = { version: deps.version, storedAt: deps.now(), data };
    deps.storage?.setItem(cacheKey(lng, ns), JSON.stringify(entry));
  } catch {
    // Storage full or disabled: the translations still work for this page load.
  }
}

/** One attempt: the parsed file, or a TranslationLoadError saying whether to retry. */
async function fetchOnce(deps: LoaderDeps, url: string): Promise<Translations> {
  let status: number;
  let text: string;
  try {
    const res = await deps.fetch(url);
    status = res.status;
    text = await res.text();
  } catch {
    throw new TranslationLoadError(`failed loading ${url}: network error`, true);
  }
  if (status < 200 || status >= 300) {
    throw new TranslationLoadError(`failed loading ${url}: status ${status}`, isRetryableStatus(status));
  }
  try {
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('not an object');
    return data as Translations;
  } catch {
    throw new TranslationLoadError(`failed parsing ${url}`, false);
  }
}

export async function loadTranslations(deps: LoaderDeps, lng: string, ns: string): Promise<Translations> {
  const cached = readCache(deps, lng, ns);
  if (cached) return cached;
  const url = translationUrl(lng, ns);
  for (let retry = 0; ; retry++) {
    try {
      const data = await fetchOnce(deps, url);
      writeCache(deps, lng, ns, data);
      return data;
    } catch (error) {
      if (!(error instanceof TranslationLoadError) || !error.retryable || retry >= TRANSLATION_MAX_RETRIES)
        throw error;
      await deps.sleep(retryDelay(retry));
    }
  }
}
