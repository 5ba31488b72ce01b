import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadTranslations, type LoaderDeps } from './translationLoader.ts';

export const NAMESPACES = [
  'common',
  'auth',
  'account',
  'dashboard',
  'server',
  'startup',
  'files',
  'network',
  'users',
  'activity',
  'admin',
] as const;

function browserDeps(): LoaderDeps {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    storage = null;
  }
  return {
    fetch: (url) => fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } }),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    storage,
    now: () => Date.now(),
    version: __TALON_BUILD__,
  };
}

/** i18next backend over loadTranslations. */
export function createBackend(deps: LoaderDeps = browserDeps()): BackendModule {
  return {
    type: 'backend',
    init: () => undefined,
    read: (lng: string, ns: string, callback: ReadCallback) => {
      loadTranslations(deps, lng, ns).then(
        (data) => callback(null, data),
        (error: Error) => callback(error, false),
      );
    },
  };
}

export async function initI18n(language: string): Promise<void> {
  await i18next
    .use(createBackend())
    .use(initReactI18next)
    .init({
      lng: language || 'en',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      keySeparator: '.',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}
