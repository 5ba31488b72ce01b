import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listNodes } from '../../../api/application/nodes.ts';
import { allocationAddress, listServers, type AdminServer } from '../../../api/application/servers.ts';
import {
  AdminList,
  AdminPage,
  LinkButton,
  StatusBadge,
  UserPicker,
  useListParams,
  type Column,
} from '../components/index.ts';
import { formatDay, formatMib } from '../format.ts';
import { SERVER_STATUS_FILTERS, serverStatus } from './serverStatus.ts';

/** The owner filter: a user search whose choice lives in the address bar as `owner_id`. */
function OwnerFilter() {
  const { t } = useTranslation('admin');
  const list = useListParams({ filters: ['owner_id'] });
  const raw = list.filters.owner_id ?? '';
  const value = /^\d+$/.test(raw) ? Number(raw) : null;
  return (
    <UserPicker
      compact
      label={t('servers.owner')}
      placeholder={t('servers.owner_filter_placeholder')}
      clearLabel={t('servers.owner_filter_clear')}
      value={value}
      onChange={(id) => list.setFilter('owner_id', id === null ? '' : String(id))}
    />
  );
}

/** Memory and disk limits in one cell: "1 GiB · 5 GiB", 0 reads "Unlimited". */
function LimitsCell({ server }: { server: AdminServer }) {
  const { t } = useTranslation('admin');
  const size = (mib: number) => (mib > 0 ? formatMib(mib) : t('common.unlimited'));
  return (
    <span className="whitespace-nowrap text-zinc-300">
      <span className="sr-only">{t('servers.memory')}: </span>
      {size(server.limits.memory)}
      <span aria-hidden="true" className="text-zinc-600">
        {' · '}
      </span>
      <span className="sr-only">, {t('servers.disk')}: </span>
      {size(server.limits.disk)}
    </span>
  );
}

/** /admin/servers: every server, searchable, filtered by owner, node and status. */
export function ServersListPage() {
  const { t } = useTranslation('admin');
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'choices'],
    queryFn: () => listNodes({ perPage: 100 }),
  });
  const columns: Column<AdminServer>[] = [
    {
      id: 'name',
      header: t('servers.name'),
      sortKey: 'name',
      cell: (s) => (
        <span className="flex flex-col">
          <span>{s.name}</span>
          <code className="text-xs font-normal text-zinc-400">{s.identifier}</code>
        </span>
      ),
    },
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
      id: 'allocation',
      header: t('servers.primary_allocation'),
      hideBelow: 'lg',
      cell: (s) => {
        const primary = s.allocations.find((a) => a.id === s.allocationId);
        return primary ? <code>{allocationAddress(primary)}</code> : '—';
      },
    },
    {
      id: 'status',
      header: t('servers.status_label'),
      cell: (s) => {
        const status = serverStatus(s.status, s.suspended);
        return <StatusBadge tone={status.tone}>{t(status.key)}</StatusBadge>;
      },
    },
    {
      id: 'limits',
      header: t('servers.limits_column'),
      hideBelow: 'sm',
      cell: (s) => <LimitsCell server={s} />,
    },
    {
      id: 'created',
      header: t('common.created'),
      sortKey: 'created_at',
      hideBelow: 'lg',
      cell: (s) => <span className="whitespace-nowrap">{formatDay(s.createdAt)}</span>,
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
        include={['user', 'node', 'allocations']}
        label={t('servers.title')}
        searchLabel={t('servers.search')}
        emptyText={t('servers.empty')}
        columns={columns}
        rowKey={(s) => s.id}
        rowHref={(s) => `/admin/servers/view/${s.id}`}
        extraFilters={['owner_id']}
        toolbarExtra={<OwnerFilter />}
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
