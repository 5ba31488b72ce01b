import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../api/errors.ts';
import { deleteSshKey, type SshKey } from '../../api/sshKeys.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { KeyIcon, TrashIcon } from '../../app/Icons.tsx';
import { ConfirmationModal } from '../../components/ConfirmationModal.tsx';
import { formatLastUsed } from '../../lib/formatDate.ts';
import { fingerprintText, SSH_KEYS_FLASH, useSshKeys, useSshKeysCache } from './sshKeysQuery.ts';

/** The account's SSH keys: name, fingerprint, when added; removal after a confirmation. */
export function SshKeyList() {
  const { t } = useTranslation('account');
  const keys = useSshKeys();
  const updateKeys = useSshKeysCache();
  const [deleting, setDeleting] = useState<SshKey | null>(null);
  const [busy, setBusy] = useState(false);

  const confirmDelete = () => {
    if (!deleting) return;
    const { fingerprint } = deleting;
    useGlobalStore.getState().clearFlashes(SSH_KEYS_FLASH);
    setBusy(true);
    deleteSshKey(fingerprint)
      .then(() => updateKeys((list) => list.filter((k) => k.fingerprint !== fingerprint)))
      .catch((error: unknown) => flashError(SSH_KEYS_FLASH, httpErrorToHuman(error)))
      .finally(() => {
        setBusy(false);
        setDeleting(null);
      });
  };

  if (keys.isError && !keys.data) {
    return <p className="text-sm text-red-300">{httpErrorToHuman(keys.error)}</p>;
  }
  if (!keys.data || keys.data.length === 0) {
    return (
      <p className="py-4 text-center text-sm text-zinc-400">
        {keys.isLoading ? t('api.loading') : t('ssh.empty')}
      </p>
    );
  }

  return (
    <>
      <ConfirmationModal
        visible={deleting !== null}
        title={t('ssh.delete_title')}
        buttonText={t('ssh.delete_button')}
        onConfirmed={confirmDelete}
        onDismissed={() => setDeleting(null)}
        busy={busy}
      >
        {t('ssh.delete_confirm', { name: deleting?.name ?? '' })}
      </ConfirmationModal>
      <ul className="divide-y divide-zinc-800" data-testid="ssh-key-list">
        {keys.data.map((key) => {
          const added = formatLastUsed(key.createdAt);
          return (
            <li key={key.fingerprint} className="flex items-center gap-3 py-3">
              <span className="hidden text-zinc-500 sm:block">
                <KeyIcon />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-zinc-100">{key.name}</p>
                <code className="block font-mono text-xs break-all text-zinc-300">
                  {fingerprintText(key.fingerprint)}
                </code>
                {added && <p className="text-xs text-zinc-400">{t('ssh.added_on', { date: added })}</p>}
              </div>
              <button
                type="button"
                aria-label={t('ssh.delete', { name: key.name })}
                onClick={() => setDeleting(key)}
                className="focus-ring rounded p-2 text-zinc-400 hover:bg-red-950 hover:text-red-400"
              >
                <TrashIcon />
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
