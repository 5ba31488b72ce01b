import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getApiKeys } from '../../api/apiKeys.ts';
import type { ApiKey } from '../../api/types.ts';

export const API_KEYS_QUERY = ['account', 'api-keys'] as const;

export function useApiKeys() {
  return useQuery({ queryKey: API_KEYS_QUERY, queryFn: getApiKeys });
}

/** Edits the cached list in place after a create or delete. */
export function useApiKeysCache() {
  const client = useQueryClient();
  return (update: (keys: ApiKey[]) => ApiKey[]) =>
    client.setQueryData<ApiKey[]>(API_KEYS_QUERY, (keys) => update(keys ?? []));
}
