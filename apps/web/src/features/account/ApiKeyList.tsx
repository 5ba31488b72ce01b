import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteApiKey } from '../../api/apiKeys.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { KeyIcon, TrashIcon } from '../../app/Icons.tsx';
import { ConfirmationModal } from '../../components/ConfirmationModal.tsx';
import { formatLastUsed } from '../../lib/formatDate.ts';
import { useApiKeys, useApiKeysCache } from './apiKeysQuery.ts';

/** API Keys list with delete confirmation (spec §2, §8). */
export function ApiKeyList() {
  const { t } = useTranslation('account');
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const keys = useApiKeys();
  const updateKeys = useApiKeysCache();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirmDelete = () => {
    if (!deleting) return;
    const identifier = deleting;
    clearFlashes('account');
    setBusy(true);
    deleteApiKey(identifier)
      .then(() => updateKeys((list) => list.filter((k) => k.identifier !== identifier)))
      .catch((error: unknown) => flashError('account', httpErrorToHuman(error)))
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
        {keys.isLoading ? t('api.loading') : t('api.empty')}
      </p>
    );
  }

  return (
    <>
      <ConfirmationModal
        visible={deleting !== null}
        title={t('api.delete_title')}
        buttonText={t('api.delete_button')}
        onConfirmed={confirmDelete}
        onDismissed={() => setDeleting(null)}
        busy={busy}
      >
        {t('api.delete_confirm')}
      </ConfirmationModal>
      <ul className="divide-y divide-zinc-800" data-testid="api-key-list">
        {keys.data.map((key) => {
          const lastUsed = formatLastUsed(key.lastUsedAt);
          return (
            <li key={key.identifier} className="flex items-center gap-3 py-3">
              <span className="hidden text-zinc-500 sm:block">
                <KeyIcon />
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-zinc-100">{key.description}</p>
                  <p className="text-xs text-zinc-400">
                    {t('api.last_used', { date: lastUsed ?? t('api.never') })}
                  </p>
                </div>
                <code className="self-start rounded bg-zinc-950 px-2 py-1 font-mono text-xs text-zinc-300 sm:self-auto">
                  {key.identifier}
                </code>
              </div>
              <button
                type="button"
                aria-label={t('api.delete', { identifier: key.identifier })}
                onClick={() => setDeleting(key.identifier)}
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
