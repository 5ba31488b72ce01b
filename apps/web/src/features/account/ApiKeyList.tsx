import { useTranslation } from 'react-i18next';
import { deleteApiKey } from '../../api/apiKeys.ts';
import type { ApiKey } from '../../api/types.ts';
import { formatLastUsed } from '../../lib/formatDate.ts';
import { useApiKeys, useApiKeysCache } from './apiKeysQuery.ts';
import { CredentialList } from './CredentialList.tsx';

/** API Keys list with delete confirmation (spec §2, §8). */
export function ApiKeyList() {
  const { t } = useTranslation('account');
  const updateKeys = useApiKeysCache();
  const remove = ({ identifier }: ApiKey) =>
    deleteApiKey(identifier).then(() =>
      updateKeys((list) => list.filter((k) => k.identifier !== identifier)),
    );
  return (
    <CredentialList
      query={useApiKeys()}
      idOf={(key) => key.identifier}
      remove={remove}
      flashKey="account"
      testId="api-key-list"
      texts={{
        empty: t('api.empty'),
        deleteTitle: t('api.delete_title'),
        deleteButton: t('api.delete_button'),
        deleteConfirm: () => t('api.delete_confirm'),
        deleteLabel: (key) => t('api.delete', { identifier: key.identifier }),
      }}
    >
      {(key) => (
        <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-zinc-100">{key.description}</p>
            <p className="text-xs text-zinc-400">
              {t('api.last_used', { date: formatLastUsed(key.lastUsedAt) ?? t('api.never') })}
            </p>
          </div>
          <code className="self-start rounded bg-zinc-950 px-2 py-1 font-mono text-xs text-zinc-300 sm:self-auto">
            {key.identifier}
          </code>
        </div>
      )}
    </CredentialList>
  );
}
