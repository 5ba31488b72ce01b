import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listServers, type AdminServer } from '../../../api/application/servers.ts';
import { listNodes } from '../../../api/application/nodes.ts';
import { AdminList, AdminPage, LinkButton, StatusBadge, type Column } from '../components/index.ts';
import { SERVER_STATUS_FILTERS, serverStatus } from './serverStatus.ts';

/** /admin/servers: every server, searchable, filtered by node and status. */
export function ServersListPage() {
  const { t } = useTranslation('admin');
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'choices'],
    queryFn: () => listNodes({ perPage: 100 }),
  });
  const columns: Column<AdminServer>[] = [
    { id: 'name', header: t('servers.name'), sortKey: 'name', cell: (s) => s.name },
    {
      id: 'owner',
      header: t('servers.owner'),
      cell: (s) => s.owner?.username ?? `#${s.userId}`,
    },
    {
      id: 'node',
      header: t('servers.node'),
      hideBelow: 'md',
      cell: (s) => s.nodeItem?.name ?? `#${s.nodeId}`,
    },
    {
      id: 'identifier',
      header: t('servers.identifier'),
      hideBelow: 'lg',
      cell: (s) => <code>{s.identifier}</code>,
    },
    {
      id: 'status',
      header: t('servers.status_label'),
      cell: (s) => {
        const status = serverStatus(s.status, s.suspended);
        return <StatusBadge tone={status.tone}>{t(status.key)}</StatusBadge>;
      },
    },
  ];
  return (
    <AdminPage
      title={t('servers.title')}
      description={t('servers.description')}
      actions={<LinkButton to="/admin/servers/new">{t('servers.create')}</LinkButton>}
    >
      <AdminList
        queryKey={['admin', 'servers']}
        fetchPage={listServers}
        include={['user', 'node']}
        label={t('servers.title')}
        searchLabel={t('servers.search')}
        emptyText={t('servers.empty')}
        columns={columns}
        rowKey={(s) => s.id}
        rowHref={(s) => `/admin/servers/view/${s.id}`}
        filters={[
          {
            name: 'node_id',
            label: t('servers.node'),
            options: [
              { value: '', label: t('common.any') },
              ...(nodes.data?.items ?? []).map((n) => ({ value: String(n.id), label: n.name })),
            ],
          },
          {
            name: 'status',
            label: t('servers.status_label'),
            options: [
              { value: '', label: t('common.any') },
              ...SERVER_STATUS_FILTERS.map((s) => ({ value: s, label: t(`servers.status.${s}`) })),
            ],
          },
        ]}
      />
    </AdminPage>
  );
}
