import { Outlet, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNest, listEggs, type AdminEgg } from '../../../api/application/nests.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, DataTable, ItemLoader, Tabs, type Column } from '../components/index.ts';

/** /admin/nests/view/:id: the nest and its eggs. */
export function NestViewPage() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const nest = useQuery({ queryKey: ['admin', 'nests', id], queryFn: () => getNest(id) });
  const eggs = useQuery({ queryKey: ['admin', 'nests', id, 'eggs'], queryFn: () => listEggs(id) });
  const columns: Column<AdminEgg>[] = [
    { id: 'name', header: t('nests.egg_name'), cell: (e) => e.name },
    {
      id: 'description',
      header: t('nests.description_label'),
      hideBelow: 'sm',
      cell: (e) => e.description ?? '—',
    },
  ];
  return (
    <AdminPage title={nest.data?.name ?? t('nests.title')} description={nest.data?.description ?? undefined}>
      <ItemLoader query={nest}>
        {() => (
          <DataTable
            label={t('nests.eggs')}
            columns={columns}
            rows={eggs.data}
            rowKey={(e) => e.id}
            rowHref={(e) => `/admin/nests/egg/${e.id}?nest=${e.nestId}`}
            isLoading={eggs.isPending}
            error={eggs.error}
            onRetry={() => void eggs.refetch()}
            emptyText={t('nests.no_eggs')}
          />
        )}
      </ItemLoader>
    </AdminPage>
  );
}

const EGG_TABS = ['', 'variables', 'script'] as const;

/** /admin/nests/egg/:id/*: an egg's tabs (configuration, variables, install script). */
export function EggViewLayout() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  return (
    <AdminPage title={t('nests.egg')}>
      <Tabs
        label={t('nests.egg_tabs_label')}
        tabs={EGG_TABS.map((tab) => ({
          to: `/admin/nests/egg/${id}${tab ? `/${tab}` : ''}`,
          label: t(`nests.tab.${tab || 'configuration'}`),
          end: tab === '',
        }))}
      />
      <Outlet />
    </AdminPage>
  );
}

export function EggTabComing() {
  const { t } = useTranslation('admin');
  return (
    <ContentBox>
      <p className="text-sm text-zinc-400">{t('common.form_coming')}</p>
    </ContentBox>
  );
}
