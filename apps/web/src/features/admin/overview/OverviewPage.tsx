import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/index.ts';

/** /admin */
export function OverviewPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('overview.title')} description={t('overview.description')}>
      {null}
    </AdminPage>
  );
}
