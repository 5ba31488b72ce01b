import { z } from 'zod';

/**
 * Remote file download ("pull"): what the panel sends a daemon and what the daemon lists (Wings
 * protocol §2.4 `files/pull`, §8.15), and the client API's view of a running download (our
 * extension `GET /api/client/servers/{server}/files/pull`, for progress bars).
 */

/** `POST /api/servers/:server/files/pull`. `directory` is Wings' deprecated name of `root`. */
export const daemonPullRequestSchema = z.object({
  url: z.string(),
  root: z.string().nullish(),
  directory: z.string().nullish(),
  file_name: z.string().nullish(),
  use_header: z.boolean().nullish(),
  foreground: z.boolean().nullish(),
});
export type DaemonPullRequest = z.infer<typeof daemonPullRequestSchema>;

/**
 * One entry of `GET /api/servers/:server/files/pull`: Wings' capitalised `Identifier` and
 * `Progress` (0–1), and ours (a Wings node sends only the first two).
 */
export const daemonPullEntrySchema = z.looseObject({
  Identifier: z.string(),
  Progress: z.number(),
  Url: z.string().optional(),
  Directory: z.string().optional(),
  Name: z.string().nullish(),
  Bytes: z.number().optional(),
  Total: z.number().nullish(),
});
export type DaemonPullEntry = z.infer<typeof daemonPullEntrySchema>;

/** Wings answers `null` for none; we answer `[]`. */
export const daemonPullListSchema = z.looseObject({ downloads: z.array(daemonPullEntrySchema).nullable() });

/** `remote_download` attributes of the client API list. */
export interface RemoteDownloadAttributes {
  identifier: string;
  url: string | null;
  directory: string | null;
  file_name: string | null;
  /** 0–1; 0 while the size is unknown. */
  progress: number;
  bytes: number | null;
  total_bytes: number | null;
}

export function remoteDownloadAttributes(e: DaemonPullEntry): RemoteDownloadAttributes {
  return {
    identifier: e.Identifier,
    url: e.Url ?? null,
    directory: e.Directory ?? null,
    file_name: e.Name ?? null,
    progress: e.Progress,
    bytes: e.Bytes ?? null,
    total_bytes: e.Total ?? null,
  };
}
