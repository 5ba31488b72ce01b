import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../../app/store.ts';
import { ContentBox } from '../../components/ContentBox.tsx';
import { MessageBox } from '../../components/MessageBox.tsx';
import { PageContent } from '../../components/PageContent.tsx';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';
import { UpdateEmailForm } from './UpdateEmailForm.tsx';
import { UpdatePasswordForm } from './UpdatePasswordForm.tsx';

export function isTwoFactorRedirect(state: unknown): boolean {
  return (state as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true;
}

/** /account: password, email and two-factor panels (spec §2). */
export function AccountOverviewPage() {
  const { t } = useTranslation('account');
  const location = useLocation();
  const state: unknown = location.state;
  const required = useGlobalStore((s) => s.twoFactorRequired);
  const enabled = useGlobalStore((s) => s.user?.useTotp ?? false);
  // The flag comes from the SPA's own redirect (navigation state) or, after the server redirected
  // a page load here, from an API answer saying two-factor is required. Hidden once enabled.
  const showBanner = !enabled && (isTwoFactorRedirect(state) || required);
  return (
    <PageContent title={t('overview.title')} flashKey="account">
      {showBanner && (
        <div className="mb-6">
          <MessageBox type="error" title={t('two_factor_required.title')}>
            {t('two_factor_required.message')}
          </MessageBox>
        </div>
      )}
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-3">
        <ContentBox title={t('password.title')}>
          <UpdatePasswordForm />
        </ContentBox>
        <ContentBox title={t('email.title')}>
          <UpdateEmailForm />
        </ContentBox>
        <ContentBox title={t('two_factor.title')}>
          <TwoFactorPanel />
        </ContentBox>
      </div>
    </PageContent>
  );
}
