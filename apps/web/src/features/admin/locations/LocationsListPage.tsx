import { useTranslation } from 'react-i18next';
import { listLocations, type AdminLocation } from '../../../api/application/locations.ts';
import { AdminList, AdminPage, type Column } from '../components/index.ts';
import { formatDay } from '../format.ts';

/** /admin/locations: the places nodes are grouped by (a short code and a description). */
export function LocationsListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminLocation>[] = [
    { id: 'short', header: t('locations.short'), sortKey: 'short', cell: (l) => l.short },
    { id: 'long', header: t('locations.long'), cell: (l) => l.long ?? '—' },
    { id: 'created', header: t('common.created'), hideBelow: 'sm', cell: (l) => formatDay(l.createdAt) },
  ];
  return (
    <AdminPage title={t('locations.title')} description={t('locations.description')}>
      <AdminList
        queryKey={['admin', 'locations']}
        fetchPage={listLocations}
        label={t('locations.title')}
        searchLabel={t('locations.search')}
        emptyText={t('locations.empty')}
        columns={columns}
        rowKey={(l) => l.id}
      />
    </AdminPage>
  );
}
