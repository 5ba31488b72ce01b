import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listDatabaseHosts, type AdminDatabaseHost } from '../../../api/application/databaseHosts.ts';
import { listNodes } from '../../../api/application/nodes.ts';
import { AdminList, AdminPage, LinkButton, type Column } from '../components/index.ts';

export const DATABASE_HOSTS_QUERY = ['admin', 'database-hosts'] as const;

/**
 * /admin/databases: the MySQL/MariaDB (or PostgreSQL) servers that hold the game servers'
 * databases. The API sorts them by id only (as Pelican); search covers name and address.
 */
export function DatabaseHostsListPage() {
  const { t } = useTranslation('admin');
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'choices'],
    queryFn: () => listNodes({ perPage: 100 }),
  });
  const nodeName = (id: number) => nodes.data?.items.find((n) => n.id === id)?.name ?? `#${id}`;
  const columns: Column<AdminDatabaseHost>[] = [
    { id: 'name', header: t('databases.name'), cell: (h) => h.name },
    {
      id: 'host',
      header: t('databases.host'),
      className: 'break-all',
      cell: (h) => <code className="text-xs text-zinc-200">{`${h.host}:${h.port}`}</code>,
    },
    { id: 'username', header: t('databases.username'), hideBelow: 'md', cell: (h) => h.username },
    {
      id: 'engine',
      header: t('databases.engine'),
      hideBelow: 'lg',
      cell: (h) => t(`databases.engine_${h.engine}`),
    },
    {
      id: 'node',
      header: t('databases.node'),
      hideBelow: 'sm',
      cell: (h) => (h.nodeIds.length === 0 ? t('databases.no_node') : h.nodeIds.map(nodeName).join(', ')),
    },
    {
      id: 'limit',
      header: t('databases.max_databases'),
      hideBelow: 'lg',
      className: 'tabular-nums',
      cell: (h) => h.maxDatabases ?? t('common.unlimited'),
    },
  ];
  return (
    <AdminPage
      title={t('databases.title')}
      description={t('databases.description')}
      actions={<LinkButton to="/admin/databases/new">{t('databases.create')}</LinkButton>}
    >
      <AdminList
        queryKey={DATABASE_HOSTS_QUERY}
        fetchPage={listDatabaseHosts}
        label={t('databases.title')}
        searchLabel={t('databases.search')}
        emptyText={t('databases.empty')}
        columns={columns}
        rowKey={(h) => h.id}
        rowHref={(h) => `/admin/databases/view/${h.id}`}
      />
    </AdminPage>
  );
}
