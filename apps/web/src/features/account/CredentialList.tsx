import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../api/errors.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { KeyIcon, TrashIcon } from '../../app/Icons.tsx';
import { ConfirmationModal } from '../../components/ConfirmationModal.tsx';

export interface CredentialListProps<K> {
  query: UseQueryResult<K[]>;
  /** the row's React key and what `remove` is given */
  idOf: (item: K) => string;
  /** deletes on the panel, then drops the row from the cached list */
  remove: (item: K) => Promise<unknown>;
  /** where a failed removal is flashed */
  flashKey: string;
  texts: {
    empty: string;
    deleteTitle: string;
    deleteButton: string;
    deleteConfirm: (item: K) => string;
    deleteLabel: (item: K) => string;
  };
  testId: string;
  /** what a row shows between the key icon and the delete button */
  children: (item: K) => ReactNode;
}

/**
 * An account's credentials (API keys, SSH keys): the list, its loading and empty states, and
 * removal after a confirmation.
 */
export function CredentialList<K>({
  query,
  idOf,
  remove,
  flashKey,
  texts,
  testId,
  children,
}: CredentialListProps<K>) {
  const { t } = useTranslation('account');
  const [deleting, setDeleting] = useState<K | null>(null);
  const [busy, setBusy] = useState(false);

  const confirmDelete = () => {
    if (deleting === null) return;
    useGlobalStore.getState().clearFlashes(flashKey);
    setBusy(true);
    remove(deleting)
      .catch((error: unknown) => flashError(flashKey, httpErrorToHuman(error)))
      .finally(() => {
        setBusy(false);
        setDeleting(null);
      });
  };

  if (query.isError && !query.data) {
    return <p className="text-sm text-red-300">{httpErrorToHuman(query.error)}</p>;
  }
  if (!query.data || query.data.length === 0) {
    return (
      <p className="py-4 text-center text-sm text-zinc-400">
        {query.isLoading ? t('api.loading') : texts.empty}
      </p>
    );
  }

  return (
    <>
      <ConfirmationModal
        visible={deleting !== null}
        title={texts.deleteTitle}
        buttonText={texts.deleteButton}
        onConfirmed={confirmDelete}
        onDismissed={() => setDeleting(null)}
        busy={busy}
      >
        {deleting === null ? '' : texts.deleteConfirm(deleting)}
      </ConfirmationModal>
      <ul className="divide-y divide-zinc-800" data-testid={testId}>
        {query.data.map((item) => (
          <li key={idOf(item)} className="flex items-center gap-3 py-3">
            <span className="hidden text-zinc-500 sm:block">
              <KeyIcon />
            </span>
            {children(item)}
            <button
              type="button"
              aria-label={texts.deleteLabel(item)}
              onClick={() => setDeleting(item)}
              className="focus-ring rounded p-2 text-zinc-400 hover:bg-red-950 hover:text-red-400"
            >
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
