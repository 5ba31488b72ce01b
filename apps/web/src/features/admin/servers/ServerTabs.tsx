import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, DetailList } from '../components/index.ts';
import { formatDay, formatMib } from '../format.ts';
import { useAdminServer } from './ServerViewLayout.tsx';

/** About (the index tab): what the server is and where it runs. */
export function ServerAboutTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const unlimited = t('common.unlimited');
  return (
    <ContentBox>
      <DetailList
        items={[
          [t('servers.identifier'), <code key="id">{server.identifier}</code>],
          [
            t('servers.owner'),
            server.owner ? `${server.owner.username} (${server.owner.email})` : `#${server.userId}`,
          ],
          [t('servers.node'), server.nodeItem?.name ?? `#${server.nodeId}`],
          [t('servers.memory'), server.limits.memory ? formatMib(server.limits.memory) : unlimited],
          [t('servers.disk'), server.limits.disk ? formatMib(server.limits.disk) : unlimited],
          [t('servers.cpu'), server.limits.cpu ? `${server.limits.cpu} %` : unlimited],
          [t('servers.image'), <code key="image">{server.container.image}</code>],
          [t('common.external_id'), server.externalId],
          [t('common.created'), formatDay(server.createdAt)],
        ]}
      />
    </ContentBox>
  );
}

/** A tab whose form its author is building: says so instead of showing an empty box. */
function TabComing() {
  const { t } = useTranslation('admin');
  return (
    <ContentBox>
      <p className="text-sm text-zinc-400">{t('common.form_coming')}</p>
    </ContentBox>
  );
}

export const ServerDetailsTab = TabComing;
export const ServerBuildTab = TabComing;
export const ServerStartupTab = TabComing;
export const ServerDatabasesTab = TabComing;
export const ServerManageTab = TabComing;

/** /admin/servers/new */
export function NewServerPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('servers.create')} description={t('servers.create_description')}>
      <TabComing />
    </AdminPage>
  );
}
