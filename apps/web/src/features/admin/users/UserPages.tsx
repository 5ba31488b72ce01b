import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getUser } from '../../../api/application/users.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { AdminPage, DetailList, ItemLoader } from '../components/index.ts';
import { formatDay } from '../format.ts';

/** /admin/users/new — the create form (owned by the users screens' author). */
export function NewUserPage() {
  const { t } = useTranslation('admin');
  return (
    <AdminPage title={t('users.create')} description={t('users.create_description')}>
      <ContentBox>
        <p className="text-sm text-zinc-400">{t('common.form_coming')}</p>
      </ContentBox>
    </AdminPage>
  );
}

/** /admin/users/view/:id — the account's details. */
export function UserViewPage() {
  const { t } = useTranslation('admin');
  const id = useParams().id!;
  const query = useQuery({ queryKey: ['admin', 'users', id], queryFn: () => getUser(id) });
  return (
    <AdminPage title={query.data?.username ?? t('users.title')} description={query.data?.email}>
      <ItemLoader query={query}>
        {(user) => (
          <ContentBox>
            <DetailList
              items={[
                [t('users.username'), user.username],
                [t('users.email'), user.email],
                [t('users.name'), `${user.firstName} ${user.lastName}`.trim()],
                [t('users.language'), user.language],
                [t('users.admin'), user.rootAdmin ? t('common.yes') : t('common.no')],
                [t('users.two_factor'), user.twoFactor ? t('common.on') : t('common.off')],
                [t('common.external_id'), user.externalId],
                [t('common.created'), formatDay(user.createdAt)],
              ]}
            />
          </ContentBox>
        )}
      </ItemLoader>
    </AdminPage>
  );
}
