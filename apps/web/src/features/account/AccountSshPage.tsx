import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../../app/store.ts';
import { ContentBox } from '../../components/ContentBox.tsx';
import { PageContent } from '../../components/PageContent.tsx';
import { CreateSshKeyForm } from './CreateSshKeyForm.tsx';
import { SshKeyList } from './SshKeyList.tsx';
import { SSH_KEYS_FLASH } from './sshKeysQuery.ts';

/** /account/ssh: the keys that sign this account in to SFTP. */
export function AccountSshPage() {
  const { t } = useTranslation('account');
  useEffect(() => useGlobalStore.getState().clearFlashes(SSH_KEYS_FLASH), []);
  return (
    <PageContent title={t('ssh.title')} flashKey={SSH_KEYS_FLASH}>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <ContentBox title={t('ssh.create_title')}>
          <CreateSshKeyForm />
        </ContentBox>
        <ContentBox title={t('ssh.list_title')}>
          <SshKeyList />
        </ContentBox>
      </div>
    </PageContent>
  );
}
