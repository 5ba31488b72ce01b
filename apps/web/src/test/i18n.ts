import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../../locales/en/common.json';
import auth from '../../locales/en/auth.json';
import account from '../../locales/en/account.json';
import dashboard from '../../locales/en/dashboard.json';
import server from '../../locales/en/server.json';
import files from '../../locales/en/files.json';
import startup from '../../locales/en/startup.json';
import network from '../../locales/en/network.json';
import users from '../../locales/en/users.json';
import activity from '../../locales/en/activity.json';
import admin from '../../locales/en/admin.json';

/** Component tests use the real English files, loaded synchronously. */
export function initTestI18n(): void {
  if (i18next.isInitialized) return;
  void i18next.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { common, auth, account, dashboard, server, startup, files, network, users, activity, admin } },
    defaultNS: 'common',
    keySeparator: '.',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
}
