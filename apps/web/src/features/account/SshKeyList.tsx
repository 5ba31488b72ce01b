import { useTranslation } from 'react-i18next';
import { deleteSshKey, type SshKey } from '../../api/sshKeys.ts';
import { formatLastUsed } from '../../lib/formatDate.ts';
import { CredentialList } from './CredentialList.tsx';
import { fingerprintText, SSH_KEYS_FLASH, useSshKeys, useSshKeysCache } from './sshKeysQuery.ts';

/** The account's SSH keys: name, fingerprint, when added; removal after a confirmation. */
export function SshKeyList() {
  const { t } = useTranslation('account');
  const updateKeys = useSshKeysCache();
  const remove = ({ fingerprint }: SshKey) =>
    deleteSshKey(fingerprint).then(() =>
      updateKeys((list) => list.filter((k) => k.fingerprint !== fingerprint)),
    );
  return (
    <CredentialList
      query={useSshKeys()}
      idOf={(key) => key.fingerprint}
      remove={remove}
      flashKey={SSH_KEYS_FLASH}
      testId="ssh-key-list"
      texts={{
        empty: t('ssh.empty'),
        deleteTitle: t('ssh.delete_title'),
        deleteButton: t('ssh.delete_button'),
        deleteConfirm: (key) => t('ssh.delete_confirm', { name: key.name }),
        deleteLabel: (key) => t('ssh.delete', { name: key.name }),
      }}
    >
      {(key) => {
        const added = formatLastUsed(key.createdAt);
        return (
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-zinc-100">{key.name}</p>
            <code className="block font-mono text-xs break-all text-zinc-300">
              {fingerprintText(key.fingerprint)}
            </code>
            {added && <p className="text-xs text-zinc-400">{t('ssh.added_on', { date: added })}</p>}
          </div>
        );
      }}
    </CredentialList>
  );
}
