import { useTranslation } from 'react-i18next';
import { listNodes, type AdminNode } from '../../../api/application/nodes.ts';
import { AdminList, AdminPage, LinkButton, type Column } from '../components/index.ts';
import { formatMib } from '../format.ts';
import { NodeHealthBadge } from './NodeHealthBadge.tsx';

/** /admin/nodes: the machines that run servers, with whether each answers. */
export function NodesListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminNode>[] = [
    { id: 'name', header: t('nodes.name'), sortKey: 'name', cell: (n) => n.name },
    { id: 'health', header: t('nodes.health'), cell: (n) => <NodeHealthBadge id={n.id} /> },
    { id: 'fqdn', header: t('nodes.fqdn'), hideBelow: 'sm', cell: (n) => <code>{n.fqdn}</code> },
    {
      id: 'memory',
      header: t('nodes.memory'),
      hideBelow: 'md',
      cell: (n) => `${formatMib(n.allocated.memory)} / ${formatMib(n.memory)}`,
    },
    {
      id: 'disk',
      header: t('nodes.disk'),
      hideBelow: 'lg',
      cell: (n) => `${formatMib(n.allocated.disk)} / ${formatMib(n.disk)}`,
    },
  ];
  return (
    <AdminPage
      title={t('nodes.title')}
      description={t('nodes.description')}
      actions={<LinkButton to="/admin/nodes/new">{t('nodes.create')}</LinkButton>}
    >
      <AdminList
        queryKey={['admin', 'nodes']}
        fetchPage={listNodes}
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
