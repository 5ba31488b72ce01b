import { useTranslation } from 'react-i18next';
import { listNests, type AdminNest } from '../../../api/application/nests.ts';
import { AdminList, AdminPage, type Column } from '../components/index.ts';

/** /admin/nests: groups of eggs (the game types servers are made from). */
export function NestsListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminNest>[] = [
    { id: 'name', header: t('nests.name'), cell: (n) => n.name },
    {
      id: 'description',
      header: t('nests.description_label'),
      hideBelow: 'sm',
      cell: (n) => n.description ?? '—',
    },
    { id: 'author', header: t('nests.author'), hideBelow: 'md', cell: (n) => n.author },
  ];
  return (
    <AdminPage title={t('nests.title')} description={t('nests.description')}>
      <AdminList
        queryKey={['admin', 'nests']}
        fetchPage={listNests}
        label={t('nests.title')}
        searchLabel={t('nests.search')}
        emptyText={t('nests.empty')}
        columns={columns}
        rowKey={(n) => n.id}
        rowHref={(n) => `/admin/nests/view/${n.id}`}
      />
    </AdminPage>
  );
}
