import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/index.ts';

/** /admin/api */
export function ApiKeysPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('api.title')} description={t('api.description')}>
      {null}
    </AdminPage>
  );
}
