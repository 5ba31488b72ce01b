import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getSubusers, type Subuser } from '../../../api/subusers.ts';
import { useServerStore } from '../store.ts';

export const subusersQueryKey = (serverId: string) => ['server', serverId, 'users'] as const;

/** The current server's subusers (GET .../users). */
export function useSubusers() {
  const serverId = useServerStore((s) => s.server!.id);
  return useQuery({
    queryKey: subusersQueryKey(serverId),
    queryFn: () => getSubusers(serverId),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Edits the cached list after a create, update or delete: `update` gets the list, answers the new one. */
export function useSubusersCache() {
  const client = useQueryClient();
  const serverId = useServerStore((s) => s.server!.id);
  return (update: (list: Subuser[]) => Subuser[]) =>
    client.setQueryData<Subuser[]>(subusersQueryKey(serverId), (list) => update(list ?? []));
}
