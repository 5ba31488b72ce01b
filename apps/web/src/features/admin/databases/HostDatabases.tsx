import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listHostDatabases, type HostDatabase } from '../../../api/application/serverDatabases.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { DataTable, type Column } from '../components/index.ts';

/** The databases made on a host: which server each belongs to, its name, user and where it may connect from. */
export function HostDatabases({ hostId }: { hostId: number }) {
  const { t } = useTranslation('admin');
  const query = useQuery({
    queryKey: ['admin', 'database-hosts', String(hostId), 'databases'],
    queryFn: () => listHostDatabases(hostId),
  });
  const columns: Column<HostDatabase>[] = [
    {
      id: 'server',
      header: t('databases.list.server'),
      cell: (d) => (
        <Link
          to={`/admin/servers/view/${d.serverId}`}
          className="focus-ring rounded text-sky-300 hover:underline"
        >
          {d.serverName}
        </Link>
      ),
    },
    { id: 'database', header: t('databases.list.database'), cell: (d) => <code>{d.database}</code> },
    { id: 'username', header: t('databases.list.username'), cell: (d) => <code>{d.username}</code> },
    {
      id: 'remote',
      header: t('databases.list.remote'),
      cell: (d) => <code>{d.remote}</code>,
      hideBelow: 'sm',
    },
  ];
  return (
    <ContentBox title={t('databases.list.title')}>
      <DataTable
        label={t('databases.list.title')}
        columns={columns}
        rows={query.data}
        rowKey={(d) => d.id}
        isLoading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        emptyText={t('databases.list.empty')}
      />
    </ContentBox>
  );
}
