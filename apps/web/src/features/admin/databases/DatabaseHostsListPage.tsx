import { useTranslation } from 'react-i18next';
import { listDatabaseHosts, type AdminDatabaseHost } from '../../../api/application/databaseHosts.ts';
import { AdminList, AdminPage, type Column } from '../components/index.ts';

/** /admin/databases: the MySQL/MariaDB servers that hold the game servers' databases. */
export function DatabaseHostsListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminDatabaseHost>[] = [
    { id: 'name', header: t('databases.name'), cell: (h) => h.name },
    { id: 'host', header: t('databases.host'), cell: (h) => <code>{`${h.host}:${h.port}`}</code> },
    { id: 'username', header: t('databases.username'), hideBelow: 'sm', cell: (h) => h.username },
  ];
  return (
    <AdminPage title={t('databases.title')} description={t('databases.description')}>
      <AdminList
        queryKey={['admin', 'database-hosts']}
        fetchPage={listDatabaseHosts}
        label={t('databases.title')}
        searchLabel={t('databases.search')}
        emptyText={t('databases.empty')}
        columns={columns}
        rowKey={(h) => h.id}
      />
    </AdminPage>
  );
}
