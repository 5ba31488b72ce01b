import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listServers, type AdminServer } from '../../../api/application/servers.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { DataTable, StatusBadge, type Column } from '../components/index.ts';
import { serverStatus } from '../servers/serverStatus.ts';

/** How many of a user's servers the view lists; more are counted, not shown. */
const SHOWN = 100;

/** The servers a user owns (filter[owner_id], an extension), each linking to its admin view. */
export function UserServers({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const query = useQuery({
    queryKey: ['admin', 'servers', { owner: userId }],
    queryFn: () => listServers({ filters: { owner_id: String(userId) }, perPage: SHOWN, include: ['node'] }),
  });
  const columns: Column<AdminServer>[] = [
    { id: 'name', header: t('servers.name'), cell: (s) => s.name },
    {
      id: 'node',
      header: t('servers.node'),
      hideBelow: 'sm',
      cell: (s) => s.nodeItem?.name ?? `#${s.nodeId}`,
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
  const total = query.data?.pagination.total ?? 0;
  return (
    <ContentBox title={t('users.servers_title')}>
      <div className="space-y-2">
        <DataTable
          label={t('users.servers_title')}
          columns={columns}
          rows={query.data?.items}
          rowKey={(s) => s.id}
          rowHref={(s) => `/admin/servers/view/${s.id}`}
          isLoading={query.isPending}
          error={query.error}
          onRetry={() => void query.refetch()}
          emptyText={t('users.servers_empty')}
        />
        {total > SHOWN && (
          <p className="text-xs text-zinc-400">{t('users.servers_more', { shown: SHOWN, total })}</p>
        )}
      </div>
    </ContentBox>
  );
}
