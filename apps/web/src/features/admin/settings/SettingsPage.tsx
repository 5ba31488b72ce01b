import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/index.ts';

/** /admin/settings */
export function SettingsPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('settings.title')} description={t('settings.description')}>
      {null}
    </AdminPage>
  );
}
