import { Outlet, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createNode,
  deleteNode,
  getNode,
  nodeInputOf,
  updateNode,
  type AdminNode,
  type NodeInput,
} from '../../../api/application/nodes.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, ConfirmAction, ItemLoader, Tabs } from '../components/index.ts';
import { flashNodes } from './flash.ts';
import { NodeHealthBadge } from './NodeHealthBadge.tsx';
import { CONFIG_NOT_PERSISTED, EMPTY_NODE, stripTags, toNodeFormValues } from './nodeForm.ts';
import { NodeForm } from './NodeForm.tsx';
import { useAdminNode } from './useAdminNode.ts';

export { NodeAboutTab } from './NodeAboutTab.tsx';
export { NodeAllocationsTab } from './NodeAllocationsTab.tsx';
export { NodeConfigurationTab } from './NodeConfigurationTab.tsx';

export const NODES_QUERY = ['admin', 'nodes'] as const;
const NODE_TABS = ['', 'settings', 'configuration', 'allocations'] as const;

/** /admin/nodes/view/:id/*: loads the node (with its location); its tabs read it with useAdminNode(). */
export function NodeViewLayout() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({ queryKey: [...NODES_QUERY, id], queryFn: () => getNode(id) });
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

/**
 * Saves through `write`; the reference's 400 ConfigurationNotPersistedException means "saved, but
 * the daemon's file was not rewritten": a warning in words, not a failure.
 */
async function saveNode(
  write: () => Promise<AdminNode>,
): Promise<{ node: AdminNode | null; warning: string | null }> {
  try {
    return { node: await write(), warning: null };
  } catch (error) {
    if (error instanceof HttpError && error.code === CONFIG_NOT_PERSISTED) {
      return { node: null, warning: stripTags(httpErrorToHuman(error)) };
    }
    throw error;
  }
}

/** Settings tab: every field, reset the daemon's secret, delete the node. */
export function NodeSettingsTab() {
  const { t } = useTranslation('admin');
  const node = useAdminNode();
  const client = useQueryClient();
  const navigate = useNavigate();
  const key = [...NODES_QUERY, String(node.id)];

  const after = async (
    { node: saved, warning }: { node: AdminNode | null; warning: string | null },
    done: string,
  ) => {
    if (saved) client.setQueryData(key, saved);
    else await client.invalidateQueries({ queryKey: key });
    void client.invalidateQueries({ queryKey: NODES_QUERY, exact: false, refetchType: 'none' });
    if (warning) flashNodes('warning', t('nodes.saved_not_persisted', { detail: warning }));
    else flashNodes('success', done);
  };

  const save = async (input: NodeInput) => {
    await after(await saveNode(() => updateNode(node.id, input)), t('nodes.saved', { name: input.name }));
  };

  const resetSecret = async () => {
    await after(
      await saveNode(() => updateNode(node.id, nodeInputOf(node), true)),
      t('nodes.secret_reset_done'),
    );
  };

  const remove = async () => {
    await deleteNode(node.id);
    client.removeQueries({ queryKey: key });
    await client.invalidateQueries({ queryKey: NODES_QUERY });
    flashNodes('success', t('nodes.deleted', { name: node.name }));
    void navigate('/admin/nodes');
  };

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,8fr)_minmax(0,4fr)]">
      <ContentBox title={t('nodes.settings_title')}>
        <NodeForm mode="edit" initial={toNodeFormValues(node)} onSave={save} />
      </ContentBox>
      <div className="min-w-0 space-y-6">
        <ContentBox title={t('nodes.secret_title')}>
          <div className="space-y-3 text-sm text-zinc-300">
            <p>{t('nodes.secret_hint')}</p>
            <ConfirmAction
              label={t('nodes.secret_reset')}
              title={t('nodes.secret_reset_title', { name: node.name })}
              confirmLabel={t('nodes.secret_reset')}
              message={t('nodes.secret_reset_message')}
              onConfirm={resetSecret}
            />
          </div>
        </ContentBox>
        <ContentBox title={t('nodes.delete_title')}>
          <div className="space-y-3 text-sm text-zinc-300">
            <p>{t('nodes.delete_hint')}</p>
            <ConfirmAction
              label={t('nodes.delete')}
              title={t('nodes.delete_confirm_title', { name: node.name })}
              confirmLabel={t('nodes.delete')}
              message={t('nodes.delete_message', { name: node.name })}
              onConfirm={remove}
            />
          </div>
        </ContentBox>
      </div>
    </div>
  );
}

/** /admin/nodes/new: then its allocations and the setup command. */
export function NewNodePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const save = async (input: NodeInput) => {
    const node = await createNode(input);
    await client.invalidateQueries({ queryKey: NODES_QUERY });
    flashNodes('success', t('nodes.created', { name: node.name }));
    void navigate(`/admin/nodes/view/${node.id}/allocations`);
  };
  return (
    <AdminPage title={t('nodes.create')} description={t('nodes.create_description')}>
      <ContentBox>
        <NodeForm mode="create" initial={EMPTY_NODE} onSave={save} />
      </ContentBox>
    </AdminPage>
  );
}
