import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  deleteApplicationKey,
  listApplicationKeys,
  type ApplicationKey,
} from '../../../api/application/apiKeys.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, ConfirmAction, DataTable, type Column } from '../components/index.ts';
import { formatMoment } from '../format.ts';
import { APPLICATION_KEYS_QUERY, CreateKeyForm } from './CreateKeyForm.tsx';
import { describeRights } from './PermissionsPicker.tsx';

/** /admin/api: application API keys for billing modules and scripts. */
export function ApiKeysPage() {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const keys = useQuery({ queryKey: APPLICATION_KEYS_QUERY, queryFn: listApplicationKeys });

  const remove = async (identifier: string) => {
    await deleteApplicationKey(identifier);
    client.setQueryData<ApplicationKey[]>(APPLICATION_KEYS_QUERY, (list) =>
      (list ?? []).filter((key) => key.identifier !== identifier),
    );
  };

  const columns: Column<ApplicationKey>[] = [
    {
      id: 'key',
      header: t('api.key'),
      cell: (key) => (
        <span className="block min-w-0">
          <span className="block text-zinc-100">{key.description}</span>
          <code className="text-xs text-zinc-400">{key.identifier}</code>
          {/* The last-use column is left out on a phone: said here instead. */}
          <span className="block text-xs text-zinc-400 sm:hidden">
            {t('api.last_used')}: {formatMoment(key.lastUsedAt) ?? t('common.never')}
          </span>
        </span>
      ),
    },
    {
      id: 'rights',
      header: t('api.permissions'),
      hideBelow: 'md',
      className: 'text-xs text-zinc-300',
      cell: (key) => describeRights(key.permissions, t),
    },
    {
      id: 'used',
      header: t('api.last_used'),
      hideBelow: 'sm',
      className: 'whitespace-nowrap text-zinc-300',
      cell: (key) => formatMoment(key.lastUsedAt) ?? t('common.never'),
    },
    {
      id: 'actions',
      header: t('api.actions'),
      cell: (key) => (
        <ConfirmAction
          label={t('common.delete')}
          title={t('api.delete_title')}
          confirmLabel={t('api.delete_confirm')}
          message={t('api.delete_message', { description: key.description, identifier: key.identifier })}
          onConfirm={() => remove(key.identifier)}
          className="px-3 py-1"
        />
      ),
    },
  ];

  return (
    <AdminPage title={t('api.title')} description={t('api.description')}>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <ContentBox title={t('api.create_title')}>
          <CreateKeyForm />
        </ContentBox>
        <section aria-labelledby="admin-keys-title" className="order-first min-w-0 xl:order-none">
          <h2 id="admin-keys-title" className="mb-2 px-1 text-base font-semibold text-zinc-200">
            {t('api.list_title')}
          </h2>
          <DataTable
            label={t('api.list_title')}
            columns={columns}
            rows={keys.data}
            rowKey={(key) => key.identifier}
            isLoading={keys.isPending}
            error={keys.error}
            onRetry={() => void keys.refetch()}
            emptyText={t('api.empty')}
          />
        </section>
      </div>
    </AdminPage>
  );
}
