import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage } from '../components/index.ts';

// The server view's tabs live in ./view/ (one file each); the route table imports them from here.
export { ServerAboutTab } from './view/AboutTab.tsx';
export { ServerDetailsTab } from './view/DetailsTab.tsx';
export { ServerBuildTab } from './view/BuildTab.tsx';
export { ServerStartupTab } from './view/StartupTab.tsx';
export { ServerDatabasesTab } from './view/DatabasesTab.tsx';
export { ServerManageTab } from './view/ManageTab.tsx';

/** /admin/servers/new until the create page (servers/create/) takes this route over. */
export function NewServerPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('servers.create')} description={t('servers.create_description')}>
      <ContentBox>
        <p className="text-sm text-zinc-400">{t('common.form_coming')}</p>
      </ContentBox>
    </AdminPage>
  );
}
