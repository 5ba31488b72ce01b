import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createDatabaseHost,
  deleteDatabaseHost,
  getDatabaseHost,
  updateDatabaseHost,
  type AdminDatabaseHost,
  type DatabaseHostInput,
} from '../../../api/application/databaseHosts.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { ADMIN_FLASH, AdminPage, ConfirmAction, ItemLoader } from '../components/index.ts';
import { DatabaseHostForm } from './DatabaseHostForm.tsx';
import { HostDatabases } from './HostDatabases.tsx';
import { DATABASE_HOSTS_QUERY } from './DatabaseHostsListPage.tsx';
import { EMPTY_DATABASE_HOST, toDatabaseHostFormValues } from './databaseHostForm.ts';

function flashSuccess(message: string) {
  const store = useGlobalStore.getState();
  store.clearFlashes(ADMIN_FLASH);
  store.addFlash({ key: ADMIN_FLASH, type: 'success', message });
}

/** /admin/databases/new */
export function NewDatabaseHostPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const save = async (input: DatabaseHostInput) => {
    const host = await createDatabaseHost(input);
    await client.invalidateQueries({ queryKey: DATABASE_HOSTS_QUERY });
    flashSuccess(t('databases.created', { name: host.name, address: `${host.host}:${host.port}` }));
    void navigate(`/admin/databases/view/${host.id}`);
  };
  return (
    <AdminPage title={t('databases.create')} description={t('databases.create_description')}>
      <ContentBox>
        <DatabaseHostForm mode="create" initial={EMPTY_DATABASE_HOST} onSave={save} />
      </ContentBox>
    </AdminPage>
  );
}

/** /admin/databases/view/:id — edit the host (tested again on save) or delete it. */
export function DatabaseHostViewPage() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({ queryKey: [...DATABASE_HOSTS_QUERY, id], queryFn: () => getDatabaseHost(id) });
  return (
    <AdminPage
      title={query.data?.name ?? t('databases.title')}
      description={query.data ? `${query.data.host}:${query.data.port}` : undefined}
    >
      <ItemLoader query={query}>{(host) => <DatabaseHostView host={host} />}</ItemLoader>
    </AdminPage>
  );
}

function DatabaseHostView({ host }: { host: AdminDatabaseHost }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const navigate = useNavigate();

  const save = async (input: DatabaseHostInput) => {
    const saved = await updateDatabaseHost(host.id, input);
    useGlobalStore.getState().clearFlashes(ADMIN_FLASH);
    client.setQueryData([...DATABASE_HOSTS_QUERY, String(host.id)], saved);
    void client.invalidateQueries({ queryKey: DATABASE_HOSTS_QUERY, refetchType: 'none' });
  };

  const remove = async () => {
    await deleteDatabaseHost(host.id);
    client.removeQueries({ queryKey: [...DATABASE_HOSTS_QUERY, String(host.id)] });
    await client.invalidateQueries({ queryKey: DATABASE_HOSTS_QUERY });
    flashSuccess(t('databases.deleted', { name: host.name }));
    void navigate('/admin/databases');
  };

  return (
    <div className="space-y-6">
      <ContentBox title={t('databases.details')}>
        <DatabaseHostForm
          mode="edit"
          initial={toDatabaseHostFormValues(host)}
          otherNodeIds={host.nodeIds.slice(1)}
          onSave={save}
          savedNote={t('databases.saved')}
        />
      </ContentBox>
      <HostDatabases hostId={host.id} />
      <ContentBox title={t('databases.delete_title')}>
        <div className="space-y-3 text-sm text-zinc-300">
          <p>{t('databases.delete_hint')}</p>
          <ConfirmAction
            label={t('databases.delete')}
            title={t('databases.delete_confirm_title', { name: host.name })}
            confirmLabel={t('databases.delete')}
            message={t('databases.delete_message', { name: host.name, address: `${host.host}:${host.port}` })}
            onConfirm={remove}
          />
        </div>
      </ContentBox>
    </div>
  );
}
