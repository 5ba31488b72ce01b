import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../components/ContentBox.tsx';
import { PageContent } from '../../components/PageContent.tsx';
import { ApiKeyList } from './ApiKeyList.tsx';
import { CreateApiKeyForm } from './CreateApiKeyForm.tsx';

/** /account/api (spec §2). */
export function AccountApiPage() {
  const { t } = useTranslation('account');
  return (
    <PageContent title={t('api.title')} flashKey="account">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <ContentBox title={t('api.create_title')}>
          <CreateApiKeyForm />
        </ContentBox>
        <ContentBox title={t('api.list_title')}>
          <ApiKeyList />
        </ContentBox>
      </div>
    </PageContent>
  );
}
