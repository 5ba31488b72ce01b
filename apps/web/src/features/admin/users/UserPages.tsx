import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createUser,
  deleteUser,
  disableUserTwoFactor,
  getUser,
  updateUser,
  type AdminUser,
  type UserInput,
} from '../../../api/application/users.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import {
  ADMIN_FLASH,
  AdminPage,
  ConfirmAction,
  DetailList,
  ItemLoader,
  StatusBadge,
} from '../components/index.ts';
import { formatDay } from '../format.ts';
import { UserForm } from './UserForm.tsx';
import { UserServers } from './UserServers.tsx';
import { EMPTY_USER, toUserFormValues } from './userForm.ts';

export const USERS_QUERY = ['admin', 'users'] as const;

function flashSuccess(message: string) {
  const store = useGlobalStore.getState();
  store.clearFlashes(ADMIN_FLASH);
  store.addFlash({ key: ADMIN_FLASH, type: 'success', message });
}

/** /admin/users/new */
export function NewUserPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const save = async (input: UserInput) => {
    const user = await createUser(input);
    await client.invalidateQueries({ queryKey: USERS_QUERY });
    flashSuccess(
      input.password
        ? t('users.created', { username: user.username })
        : t('users.created_mail', { email: user.email }),
    );
    void navigate(`/admin/users/view/${user.id}`);
  };
  return (
    <AdminPage title={t('users.create')} description={t('users.create_description')}>
      <ContentBox>
        <UserForm mode="create" initial={EMPTY_USER} onSave={save} />
      </ContentBox>
    </AdminPage>
  );
}

/** /admin/users/view/:id — edit the account, turn its 2FA off, its servers, delete it. */
export function UserViewPage() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({ queryKey: [...USERS_QUERY, id], queryFn: () => getUser(id) });
  return (
    <AdminPage title={query.data?.username ?? t('users.title')} description={query.data?.email}>
      <ItemLoader query={query}>{(user) => <UserView user={user} />}</ItemLoader>
    </AdminPage>
  );
}

function UserView({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const navigate = useNavigate();

  const save = async (input: UserInput) => {
    const saved = await updateUser(user.id, input);
    client.setQueryData([...USERS_QUERY, String(user.id)], saved);
    void client.invalidateQueries({ queryKey: USERS_QUERY, exact: false, refetchType: 'none' });
    flashSuccess(t('users.saved'));
  };

  const turnOffTwoFactor = async () => {
    await disableUserTwoFactor(user.id);
    client.setQueryData<AdminUser>([...USERS_QUERY, String(user.id)], { ...user, twoFactor: false });
    flashSuccess(t('users.two_factor_disabled', { username: user.username }));
  };

  const remove = async () => {
    await deleteUser(user.id);
    client.removeQueries({ queryKey: [...USERS_QUERY, String(user.id)] });
    await client.invalidateQueries({ queryKey: USERS_QUERY });
    flashSuccess(t('users.deleted', { username: user.username }));
    void navigate('/admin/users');
  };

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]">
      <div className="min-w-0 space-y-6">
        <ContentBox title={t('users.account')}>
          <UserForm mode="edit" initial={toUserFormValues(user)} onSave={save} />
        </ContentBox>
        <UserServers userId={user.id} />
      </div>
      <div className="min-w-0 space-y-6">
        <ContentBox title={t('users.about')}>
          <DetailList
            items={[
              [
                t('users.uuid'),
                <code key="uuid" className="text-xs">
                  {user.uuid}
                </code>,
              ],
              [t('common.external_id'), user.externalId],
              [t('common.created'), formatDay(user.createdAt)],
              [t('users.updated'), formatDay(user.updatedAt)],
            ]}
          />
        </ContentBox>
        <ContentBox title={t('users.two_factor_title')}>
          <div className="space-y-3 text-sm text-zinc-300">
            <p className="flex items-center gap-2">
              <StatusBadge tone={user.twoFactor ? 'ok' : 'neutral'}>
                {user.twoFactor ? t('users.two_factor_on') : t('users.two_factor_off')}
              </StatusBadge>
            </p>
            {user.twoFactor ? (
              <>
                <p>{t('users.two_factor_disable_hint')}</p>
                <ConfirmAction
                  label={t('users.two_factor_disable')}
                  title={t('users.two_factor_disable_title')}
                  confirmLabel={t('users.two_factor_disable')}
                  message={t('users.two_factor_disable_message', { username: user.username })}
                  onConfirm={turnOffTwoFactor}
                />
              </>
            ) : (
              <p className="text-zinc-400">{t('users.two_factor_off_hint')}</p>
            )}
          </div>
        </ContentBox>
        <ContentBox title={t('users.delete_title')}>
          <div className="space-y-3 text-sm text-zinc-300">
            <p>{t('users.delete_hint')}</p>
            <ConfirmAction
              label={t('users.delete')}
              title={t('users.delete_confirm_title', { username: user.username })}
              confirmLabel={t('users.delete')}
              message={t('users.delete_message', { username: user.username, email: user.email })}
              onConfirm={remove}
            />
          </div>
        </ContentBox>
      </div>
    </div>
  );
}
