import { Outlet, useOutletContext, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNode, type AdminNode } from '../../../api/application/nodes.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, DetailList, ItemLoader, Tabs } from '../components/index.ts';
import { formatMib } from '../format.ts';
import { NodeHealthBadge } from './NodeHealthBadge.tsx';

const NODE_TABS = ['', 'settings', 'configuration', 'allocations'] as const;

/** /admin/nodes/view/:id/*: loads the node; its tabs read it with useAdminNode(). */
export function NodeViewLayout() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({ queryKey: ['admin', 'nodes', id], queryFn: () => getNode(id) });
  return (
    <AdminPage
      title={query.data?.name ?? t('nodes.title')}
      description={query.data?.description ?? undefined}
      actions={query.data && <NodeHealthBadge id={query.data.id} />}
    >
      <Tabs
        label={t('nodes.tabs_label')}
        tabs={NODE_TABS.map((tab) => ({
          to: `/admin/nodes/view/${id}${tab ? `/${tab}` : ''}`,
          label: t(`nodes.tab.${tab || 'about'}`),
          end: tab === '',
        }))}
      />
      <ItemLoader query={query}>{(node) => <Outlet context={node} />}</ItemLoader>
    </AdminPage>
  );
}

export function useAdminNode(): AdminNode {
  return useOutletContext<AdminNode>();
}

export function NodeAboutTab() {
  const { t } = useTranslation('admin');
  const node = useAdminNode();
  return (
    <ContentBox>
      <DetailList
        items={[
          [t('nodes.fqdn'), <code key="fqdn">{`${node.scheme}://${node.fqdn}:${node.daemonListen}`}</code>],
          [t('nodes.memory'), `${formatMib(node.allocated.memory)} / ${formatMib(node.memory)}`],
          [t('nodes.disk'), `${formatMib(node.allocated.disk)} / ${formatMib(node.disk)}`],
          [t('nodes.sftp_port'), String(node.daemonSftp)],
          [t('nodes.public'), node.public ? t('common.yes') : t('common.no')],
          [t('nodes.maintenance'), node.maintenanceMode ? t('common.on') : t('common.off')],
        ]}
      />
    </ContentBox>
  );
}

function Coming() {
  const { t } = useTranslation('admin');
  return (
    <ContentBox>
      <p className="text-sm text-zinc-400">{t('common.form_coming')}</p>
    </ContentBox>
  );
}

export const NodeSettingsTab = Coming;
export const NodeConfigurationTab = Coming;
export const NodeAllocationsTab = Coming;

export function NewNodePage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('nodes.create')} description={t('nodes.create_description')}>
      <Coming />
    </AdminPage>
  );
}
