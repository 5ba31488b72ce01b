import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getServerAllocations } from '../../../api/network.ts';
import { useServerStore } from '../store.ts';

export const allocationsQueryKey = (serverId: string) => ['server', serverId, 'allocations'] as const;

/**
 * The current server's allocations (GET .../network/allocations). Each list the page holds also
 * becomes the server store's, so the console's address follows a new primary allocation.
 */
export function useAllocations() {
  const serverId = useServerStore((s) => s.server!.id);
  const patchServer = useServerStore((s) => s.patchServer);
  const query = useQuery({
    queryKey: allocationsQueryKey(serverId),
    queryFn: () => getServerAllocations(serverId),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = query.data;
  useEffect(() => {
    if (data) patchServer({ allocations: data.map(({ notes: _, ...allocation }) => allocation) });
  }, [data, patchServer]);
  return query;
}
