import { useTranslation } from 'react-i18next';
import { listNodes, type AdminNode } from '../../../api/application/nodes.ts';
import { AdminList, AdminPage, LinkButton, type Column } from '../components/index.ts';
import { UsageBar, usageOf } from '../components/UsageBar.tsx';
import { NodeHealthBadge } from './NodeHealthBadge.tsx';

/** Allocated of capacity as a thin bar with the figures above it. */
function UsageCell({ label, used, total }: { label: string; used: number; total: number }) {
  const usage = usageOf(used, total);
  return (
    <div className="w-32 space-y-1">
      <span className={`block text-xs ${usage.alarm ? 'text-red-300' : 'text-zinc-300'}`}>
        {usage.figures}
      </span>
      <UsageBar label={label} usage={usage} thin />
    </div>
  );
}

/**
 * /admin/nodes: the machines that run servers, with whether each answers. Each row asks its
 * daemon separately (up to 3 s), so a silent node never holds up the list.
 */
export function NodesListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminNode>[] = [
    { id: 'name', header: t('nodes.name'), sortKey: 'name', cell: (n) => n.name },
    { id: 'health', header: t('nodes.health'), cell: (n) => <NodeHealthBadge id={n.id} detailed /> },
    { id: 'location', header: t('nodes.location'), hideBelow: 'sm', cell: (n) => n.locationShort ?? '—' },
    { id: 'fqdn', header: t('nodes.fqdn'), hideBelow: 'md', cell: (n) => <code>{n.fqdn}</code> },
    {
      id: 'memory',
      header: t('nodes.memory'),
      hideBelow: 'lg',
      cell: (n) => (
        <UsageCell
          label={t('nodes.memory_of', { name: n.name })}
          used={n.allocated.memory}
          total={n.memory}
        />
      ),
    },
    {
      id: 'disk',
      header: t('nodes.disk'),
      hideBelow: 'lg',
      cell: (n) => (
        <UsageCell label={t('nodes.disk_of', { name: n.name })} used={n.allocated.disk} total={n.disk} />
      ),
    },
  ];
  return (
    <AdminPage
      title={t('nodes.title')}
      description={t('nodes.description')}
      actions={<LinkButton to="/admin/nodes/new">{t('nodes.create')}</LinkButton>}
    >
      <AdminList
        queryKey={['admin', 'nodes', 'list']}
        fetchPage={listNodes}
        include={['location']}
        label={t('nodes.title')}
        searchLabel={t('nodes.search')}
        emptyText={t('nodes.empty')}
        columns={columns}
        rowKey={(n) => n.id}
        rowHref={(n) => `/admin/nodes/view/${n.id}`}
      />
    </AdminPage>
  );
}
