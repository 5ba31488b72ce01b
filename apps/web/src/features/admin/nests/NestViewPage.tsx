import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  deleteNest,
  eggExportUrl,
  getNest,
  listEggs,
  updateNest,
  type AdminEgg,
  type AdminNest,
} from '../../../api/application/nests.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import {
  ADMIN_FLASH,
  AdminPage,
  ConfirmAction,
  DataTable,
  ItemLoader,
  type Column,
} from '../components/index.ts';
import { eggHref } from './eggLinks.ts';
import { ImportEggForm } from './ImportEggForm.tsx';
import { NestForm } from './NestForm.tsx';
import { NESTS_QUERY } from './NestsListPage.tsx';

const LINK =
  'focus-ring rounded px-2 py-1 text-sm font-medium text-sky-300 hover:bg-zinc-800 hover:underline';

/** /admin/nests/view/:id: the nest (rename, delete), its eggs (export each) and the egg importer. */
export function NestViewPage() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const nest = useQuery({ queryKey: [...NESTS_QUERY, 'view', id], queryFn: () => getNest(id) });
  if (nest.data) return <NestView nest={nest.data} />;
  return (
    <AdminPage title={t('nests.nest')}>
      <ItemLoader query={nest}>{() => null}</ItemLoader>
    </AdminPage>
  );
}

function NestView({ nest }: { nest: AdminNest }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const navigate = useNavigate();
  const eggs = useQuery({
    queryKey: [...NESTS_QUERY, 'view', String(nest.id), 'eggs'],
    queryFn: () => listEggs(nest.id),
  });

  const columns: Column<AdminEgg>[] = [
    { id: 'name', header: t('nests.egg_name'), cell: (e) => e.name },
    {
      id: 'description',
      header: t('nests.description_label'),
      hideBelow: 'md',
      className: 'max-w-md text-zinc-300',
      cell: (e) => <span className="line-clamp-2">{e.description || '—'}</span>,
    },
    {
      id: 'servers',
      header: t('nests.servers'),
      className: 'tabular-nums',
      cell: (e) => (e.serverCount === null ? '—' : e.serverCount),
    },
    {
      id: 'export',
      header: t('nests.actions'),
      cell: (e) => (
        <a
          href={eggExportUrl(e.nestId, e.id)}
          download
          className={LINK}
          aria-label={t('nests.export_egg', { name: e.name })}
        >
          {t('nests.export')}
        </a>
      ),
    },
  ];

  const remove = async () => {
    await deleteNest(nest.id);
    // Leave first: refreshing the area's lists while this page is open would ask for the deleted nest.
    await navigate('/admin/nests');
    client.removeQueries({ queryKey: [...NESTS_QUERY, 'view', String(nest.id)] });
    void client.invalidateQueries({ queryKey: NESTS_QUERY });
    useGlobalStore.getState().addFlash({
      key: ADMIN_FLASH,
      type: 'success',
      message: t('nests.deleted', { name: nest.name }),
    });
  };

  return (
    <AdminPage
      title={nest.name}
      description={nest.description || t('nests.no_description')}
      actions={
        <ConfirmAction
          label={t('nests.delete')}
          title={t('nests.delete_title', { name: nest.name })}
          confirmLabel={t('nests.delete_confirm')}
          message={t('nests.delete_message', { name: nest.name })}
          onConfirm={remove}
        />
      }
    >
      <section aria-labelledby="admin-nest-eggs" className="space-y-2">
        <h2 id="admin-nest-eggs" className="px-1 text-base font-semibold text-zinc-200">
          {t('nests.eggs')}
        </h2>
        <DataTable
          label={t('nests.eggs_of', { name: nest.name })}
          columns={columns}
          rows={eggs.data}
          rowKey={(e) => e.id}
          rowHref={(e) => eggHref(e)}
          isLoading={eggs.isPending}
          error={eggs.error}
          onRetry={() => void eggs.refetch()}
          emptyText={t('nests.no_eggs')}
        />
      </section>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]">
        <ContentBox title={t('nests.import.title')}>
          <ImportEggForm nestId={nest.id} />
        </ContentBox>
        <ContentBox title={t('nests.edit_title')}>
          <NestForm
            initial={{ name: nest.name, description: nest.description ?? '' }}
            submitLabel={t('common.save')}
            onSubmit={async (body) => {
              const saved = await updateNest(nest.id, body);
              client.setQueryData([...NESTS_QUERY, 'view', String(nest.id)], saved);
              useGlobalStore.getState().clearFlashes(ADMIN_FLASH);
              useGlobalStore
                .getState()
                .addFlash({ key: ADMIN_FLASH, type: 'success', message: t('nests.saved') });
            }}
          />
        </ContentBox>
      </div>
    </AdminPage>
  );
}
