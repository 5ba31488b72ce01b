import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getDatabases, type Database } from '../../../api/databases.ts';
import { useServerStore } from '../store.ts';

export const databasesQueryKey = (serverId: string) => ['server', serverId, 'databases'] as const;

/** The current server's databases (GET .../databases?include=password). */
export function useDatabases() {
  const serverId = useServerStore((s) => s.server!.id);
  return useQuery({
    queryKey: databasesQueryKey(serverId),
    queryFn: () => getDatabases(serverId),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Edits the cached list after a create, rotation or delete: `update` gets the list, answers the new one. */
export function useDatabasesCache() {
  const client = useQueryClient();
  const serverId = useServerStore((s) => s.server!.id);
  return (update: (list: Database[]) => Database[]) =>
    client.setQueryData<Database[]>(databasesQueryKey(serverId), (list) => update(list ?? []));
}
