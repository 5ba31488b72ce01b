import { useQuery } from '@tanstack/react-query';
import { listFiles } from '../../../api/files.ts';

/** Refreshing on focus happens at most this often; there is no polling (spec 001 §9). */
export const FILE_LIST_FOCUS_THROTTLE_MS = 30_000;
/** A failed list load is tried again this many times before the error view shows. */
export const FILE_LIST_RETRIES = 2;

export function fileListKey(serverId: string, directory: string) {
  return ['server', serverId, 'files', directory] as const;
}

/**
 * The entries of `directory`. The data counts as fresh for 30 s, so regaining focus reloads it only
 * when it is older than that: the focus refresh is throttled to one per 30 s.
 */
export function useFileList(serverId: string, directory: string) {
  return useQuery({
    queryKey: fileListKey(serverId, directory),
    queryFn: () => listFiles(serverId, directory),
    staleTime: FILE_LIST_FOCUS_THROTTLE_MS,
    refetchOnWindowFocus: true,
    refetchInterval: false,
    retry: FILE_LIST_RETRIES,
  });
}
