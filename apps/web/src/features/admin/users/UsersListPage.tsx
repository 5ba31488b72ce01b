import { useTranslation } from 'react-i18next';
import { listUsers, type AdminUser } from '../../../api/application/users.ts';
import { AdminList, AdminPage, LinkButton, StatusBadge, type Column } from '../components/index.ts';
import { formatDay } from '../format.ts';
import { USERS_QUERY } from './UserPages.tsx';

/** A round badge with the username's first letter: a quick visual anchor in a long list. */
function Initial({ username }: { username: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-sky-900/70 text-xs font-semibold text-sky-200 uppercase"
    >
      {username.slice(0, 1)}
    </span>
  );
}

/** /admin/users: every account, searchable by username, email and name. */
export function UsersListPage() {
  const { t } = useTranslation('admin');
  const columns: Column<AdminUser>[] = [
    {
      id: 'username',
      header: t('users.username'),
      sortKey: 'username',
      cell: (u) => (
        <span className="inline-flex items-center gap-2">
          <Initial username={u.username} />
          {u.username}
        </span>
      ),
    },
    {
      id: 'email',
      header: t('users.email'),
      sortKey: 'email',
      hideBelow: 'sm',
      className: 'break-words text-zinc-300',
      cell: (u) => u.email,
    },
    {
      id: 'name',
      header: t('users.name'),
      hideBelow: 'lg',
      cell: (u) => `${u.firstName} ${u.lastName}`.trim(),
    },
    {
      id: 'two_factor',
      header: t('users.two_factor_column'),
      cell: (u) =>
        u.twoFactor ? (
          <StatusBadge tone="ok">{t('common.on')}</StatusBadge>
        ) : (
          <StatusBadge tone="neutral">{t('common.off')}</StatusBadge>
        ),
    },
    {
      id: 'servers',
      header: t('users.servers'),
      hideBelow: 'sm',
      className: 'tabular-nums',
      cell: (u) => u.serverCount ?? '—',
    },
    {
      id: 'role',
      header: t('users.role'),
      cell: (u) => (u.rootAdmin ? <StatusBadge tone="info">{t('users.admin')}</StatusBadge> : null),
    },
    {
      id: 'created',
      header: t('common.created'),
      sortKey: 'created_at',
      hideBelow: 'lg',
      className: 'whitespace-nowrap',
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
        queryKey={USERS_QUERY}
        fetchPage={listUsers}
        include={['servers']}
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
