import { Outlet, useOutletContext, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getServer, type AdminServer } from '../../../api/application/servers.ts';
import { AdminPage, ItemLoader, LinkButton, StatusBadge, Tabs } from '../components/index.ts';
import { serverStatus } from './serverStatus.ts';

export const SERVER_TABS = ['', 'details', 'build', 'startup', 'databases', 'manage'] as const;

export function serverQueryKey(id: string) {
  return ['admin', 'servers', id] as const;
}

/** /admin/servers/view/:id/*: loads the server once; its tabs read it with useAdminServer(). */
export function ServerViewLayout() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({
    queryKey: serverQueryKey(id),
    queryFn: () => getServer(id, ['user', 'node', 'allocations']),
  });
  const server = query.data;
  const status = server ? serverStatus(server.status, server.suspended) : null;
  return (
    <AdminPage
      title={server?.name ?? t('servers.title')}
      description={server && <code>{server.uuid}</code>}
      actions={
        server && (
          <>
            {status && <StatusBadge tone={status.tone}>{t(status.key)}</StatusBadge>}
            <LinkButton to={`/server/${server.identifier}`} variant="secondary">
              {t('server_view.open_server_area')}
            </LinkButton>
          </>
        )
      }
    >
      <Tabs
        label={t('servers.tabs_label')}
        tabs={SERVER_TABS.map((tab) => ({
          to: `/admin/servers/view/${id}${tab ? `/${tab}` : ''}`,
          label: t(`servers.tab.${tab || 'about'}`),
          end: tab === '',
        }))}
      />
      <ItemLoader query={query}>{(item) => <Outlet context={item} />}</ItemLoader>
    </AdminPage>
  );
}

/** The server a tab of /admin/servers/view/:id shows. */
export function useAdminServer(): AdminServer {
  return useOutletContext<AdminServer>();
}
