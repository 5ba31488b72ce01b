import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createEggVariable,
  deleteEggVariable,
  listEggVariables,
  updateEggVariable,
  type AdminEggVariable,
} from '../../../api/application/nests.ts';
import { Button } from '../../../components/Button.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { ConfirmAction, DataTable, type Column } from '../components/index.ts';
import { NESTS_QUERY } from './NestsListPage.tsx';
import { useEggOutlet } from './EggViewLayout.tsx';
import { VariableForm } from './VariableForm.tsx';

/** null: closed; 'new': adding one; a variable: editing it. */
type Editing = null | 'new' | AdminEggVariable;

/** /admin/nests/egg/:id/variables: the settings a server of this egg has, with their rules. */
export function EggVariablesTab() {
  const { t } = useTranslation('admin');
  const { egg } = useEggOutlet();
  const client = useQueryClient();
  const queryKey = [...NESTS_QUERY, 'egg', String(egg.id), 'variables'];
  const variables = useQuery({ queryKey, queryFn: () => listEggVariables(egg.nestId, egg.id) });
  const [editing, setEditing] = useState<Editing>(null);

  const save = async (body: Parameters<typeof createEggVariable>[2]) => {
    if (editing === 'new') await createEggVariable(egg.nestId, egg.id, body);
    else if (editing) await updateEggVariable(egg.nestId, egg.id, editing.id, body);
    await client.invalidateQueries({ queryKey });
    setEditing(null);
  };

  const remove = async (variable: AdminEggVariable) => {
    await deleteEggVariable(egg.nestId, egg.id, variable.id);
    client.setQueryData<AdminEggVariable[]>(queryKey, (list) =>
      (list ?? []).filter((v) => v.id !== variable.id),
    );
  };

  const columns: Column<AdminEggVariable>[] = [
    {
      id: 'name',
      header: t('nests.variables.name'),
      cell: (v) => (
        <span className="block min-w-0">
          <span className="block font-medium text-zinc-100">{v.name}</span>
          <code className="text-xs text-sky-300">{v.envVariable}</code>
        </span>
      ),
    },
    {
      id: 'default',
      header: t('nests.variables.default'),
      hideBelow: 'sm',
      className: 'max-w-[12rem] truncate font-mono text-xs text-zinc-300',
      cell: (v) => v.defaultValue || '—',
    },
    {
      id: 'users',
      header: t('nests.variables.users'),
      hideBelow: 'md',
      className: 'text-xs text-zinc-300',
      cell: (v) =>
        v.userEditable
          ? t('nests.variables.can_edit')
          : v.userViewable
            ? t('nests.variables.can_see')
            : t('nests.variables.hidden'),
    },
    {
      id: 'rules',
      header: t('nests.variables.rules'),
      hideBelow: 'lg',
      className: 'max-w-[16rem] break-all font-mono text-xs text-zinc-300',
      cell: (v) => v.rules,
    },
    {
      id: 'actions',
      header: t('nests.actions'),
      cell: (v) => (
        <span className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            className="px-3 py-1"
            aria-label={t('nests.variables.edit_n', { name: v.name })}
            onClick={() => setEditing(v)}
          >
            {t('nests.variables.edit')}
          </Button>
          <ConfirmAction
            label={
              <span aria-label={t('nests.variables.delete_n', { name: v.name })}>{t('common.delete')}</span>
            }
            title={t('nests.variables.delete_title', { name: v.name })}
            confirmLabel={t('nests.variables.delete_confirm')}
            message={t('nests.variables.delete_message', { name: v.name, env: v.envVariable })}
            onConfirm={() => remove(v)}
            className="px-3 py-1"
          />
        </span>
      ),
    },
  ];

  return (
    <section className="space-y-3" aria-labelledby="admin-egg-variables">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="admin-egg-variables" className="px-1 text-base font-semibold text-zinc-200">
          {t('nests.tab.variables')}
        </h2>
        <Button onClick={() => setEditing('new')}>{t('nests.variables.add')}</Button>
      </div>
      <DataTable
        label={t('nests.variables.list', { name: egg.name })}
        columns={columns}
        rows={variables.data}
        rowKey={(v) => v.id}
        isLoading={variables.isPending}
        error={variables.error}
        onRetry={() => void variables.refetch()}
        emptyText={t('nests.variables.empty')}
      />
      <Modal
        visible={editing !== null}
        onDismissed={() => setEditing(null)}
        size="wide"
        title={
          editing === 'new' || editing === null
            ? t('nests.variables.add')
            : t('nests.variables.edit_title', { name: editing.name })
        }
      >
        {editing !== null && (
          <VariableForm
            key={editing === 'new' ? 'new' : editing.id}
            variable={editing === 'new' ? null : editing}
            submitLabel={editing === 'new' ? t('nests.variables.create') : t('common.save')}
            onSubmit={save}
          />
        )}
      </Modal>
    </section>
  );
}
