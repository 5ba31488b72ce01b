import { useTranslation } from 'react-i18next';
import { listUsers, type AdminUser } from '../../../api/application/users.ts';
import { AdminList, AdminPage, LinkButton, StatusBadge, type Column } from '../components/index.ts';
import { formatDay } from '../format.ts';

/** /admin/users: every account, searchable by username, email and name. */
export function UsersListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminUser>[] = [
    { id: 'username', header: t('users.username'), sortKey: 'username', cell: (u) => u.username },
    { id: 'email', header: t('users.email'), sortKey: 'email', cell: (u) => u.email },
    {
      id: 'name',
      header: t('users.name'),
      hideBelow: 'md',
      cell: (u) => `${u.firstName} ${u.lastName}`.trim(),
    },
    {
      id: 'flags',
      header: t('users.flags'),
      cell: (u) => (
        <span className="flex flex-wrap gap-1">
          {u.rootAdmin && <StatusBadge tone="info">{t('users.admin')}</StatusBadge>}
          {u.twoFactor && <StatusBadge tone="ok">{t('users.two_factor')}</StatusBadge>}
        </span>
      ),
    },
    {
      id: 'created',
      header: t('common.created'),
      sortKey: 'created_at',
      hideBelow: 'sm',
      cell: (u) => formatDay(u.createdAt),
    },
  ];
  return (
    <AdminPage
      title={t('users.title')}
      description={t('users.description')}
      actions={<LinkButton to="/admin/users/new">{t('users.create')}</LinkButton>}
    >
      <AdminList
        queryKey={['admin', 'users']}
        fetchPage={listUsers}
        label={t('users.title')}
        searchLabel={t('users.search')}
        emptyText={t('users.empty')}
        columns={columns}
        rowKey={(u) => u.id}
        rowHref={(u) => `/admin/users/view/${u.id}`}
      />
    </AdminPage>
  );
}
