import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getBackups, type Backup, type BackupPage } from '../../../api/backups.ts';
import { useServerStore } from '../store.ts';

/** Every page of the server's backup list is cached under this prefix. */
export const backupsQueryKey = (serverId: string) => ['server', serverId, 'backups'] as const;

/** How often the list is read again while a backup runs and no live connection reports its end. */
export const UNCONNECTED_REFRESH_MS = 5_000;

/**
 * One page of the current server's backups (GET .../backups?page). Completions come over the live
 * connection; without one (no websocket.connect, or the daemon unreachable) a running backup would
 * spin until a reload, so the list is read again every few seconds while one runs.
 */
export function useBackups(page: number) {
  const serverId = useServerStore((s) => s.server!.id);
  const connected = useServerStore((s) => s.connected);
  return useQuery({
    queryKey: [...backupsQueryKey(serverId), page],
    queryFn: () => getBackups(serverId, page),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) =>
      !connected && query.state.data?.items.some((b) => b.completedAt === null)
        ? UNCONNECTED_REFRESH_MS
        : false,
  });
}

/** Changes one backup in every cached page; `count` adjusts `backup_count` alongside. */
export function patchCachedBackup(
  client: QueryClient,
  serverId: string,
  uuid: string,
  patch: (backup: Backup) => Backup,
  count: (backup: Backup) => number = () => 0,
): void {
  client.setQueriesData<BackupPage>({ queryKey: backupsQueryKey(serverId) }, (page) => {
    if (!page) return page;
    const found = page.items.find((b) => b.uuid === uuid);
    if (!found) return page;
    return {
      ...page,
      backupCount: page.backupCount + count(found),
      items: page.items.map((b) => (b.uuid === uuid ? patch(b) : b)),
    };
  });
}

/** What the page does to its cached list. */
export function useBackupsCache() {
  const client = useQueryClient();
  const serverId = useServerStore((s) => s.server!.id);
  return {
    /** The panel's answer after a lock toggle replaces the row. */
    replace: (backup: Backup) => patchCachedBackup(client, serverId, backup.uuid, () => backup),
    /** Reads every page again (a backup was added or removed: the pages shift). */
    reload: () => client.invalidateQueries({ queryKey: backupsQueryKey(serverId) }),
  };
}
