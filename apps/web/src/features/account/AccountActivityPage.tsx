import { useTranslation } from 'react-i18next';
import { getAccountActivity } from '../../api/activity.ts';
import { PageContent } from '../../components/PageContent.tsx';
import { ActivityLog } from '../server/activity/ActivityLog.tsx';

/** Flash key of the account's Activity page. */
export const ACCOUNT_ACTIVITY_FLASH = 'account:activity';

/** /account/activity: what happened to this account (sign-ins, keys, email and password changes). */
export function AccountActivityPage() {
  const { t } = useTranslation('activity');
  return (
    <PageContent title={t('account_title')}>
      <h1 className="mb-2 px-1 text-base font-semibold text-zinc-200">{t('account_title')}</h1>
      <ActivityLog
        queryKey={['account', 'activity']}
        load={getAccountActivity}
        flashKey={ACCOUNT_ACTIVITY_FLASH}
      />
    </PageContent>
  );
}
