import type { RemoteDownloadAttributes } from '@talon/shared/wings/remote-download';
import { http } from './http.ts';

/** A foreground pull answers once the file is complete: as long as the daemon allows (12 h). */
export const PULL_TIMEOUT_MS = 12 * 3600_000;

/** A download running on the node (our extension GET .../files/pull), camelCased. */
export interface RemoteDownload {
  identifier: string;
  url: string | null;
  directory: string | null;
  fileName: string | null;
  /** 0–1; 0 while the size is unknown. */
  progress: number;
  bytes: number | null;
  totalBytes: number | null;
}

const base = (serverId: string) => `/api/client/servers/${serverId}/files/pull`;

/**
 * POST .../files/pull in the foreground: resolves once the file is in `directory`, or fails with the
 * daemon's reason (an internal address, too large for the disk…).
 */
export async function pullRemoteFile(
  serverId: string,
  pull: { url: string; directory: string; fileName: string | null },
  signal?: AbortSignal,
): Promise<void> {
  await http.post(
    base(serverId),
    { url: pull.url, directory: pull.directory, filename: pull.fileName, use_header: true, foreground: true },
    { timeout: PULL_TIMEOUT_MS, signal },
  );
}

/** GET .../files/pull: the downloads running for the server, with their progress. */
export async function listRemoteDownloads(serverId: string): Promise<RemoteDownload[]> {
  const { data } = await http.get<{ data?: { attributes: RemoteDownloadAttributes }[] }>(base(serverId));
  return (data.data ?? []).map(({ attributes: a }) => ({
    identifier: a.identifier,
    url: a.url,
    directory: a.directory,
    fileName: a.file_name,
    progress: a.progress,
    bytes: a.bytes,
    totalBytes: a.total_bytes,
  }));
}
