import { z } from 'zod';

/** `POST /api/servers/<uuid>/backup` (Wings protocol §2.4): the panel asks for a backup. */
export const backupRequestSchema = z.object({
  adapter: z.enum(['wings', 's3']),
  uuid: z.string(),
  /** newline-separated gitignore patterns; empty: the server's `.pteroignore` */
  ignore: z.string().default(''),
});
export type BackupRequest = z.infer<typeof backupRequestSchema>;

/** `POST /api/remote/backups/<uuid>` (§5.9): the daemon reports the result. */
export interface BackupReport {
  checksum: string;
  checksum_type: 'sha1' | '';
  size: number;
  successful: boolean;
  parts: { etag: string; part_number: number }[] | null;
}

/** The websocket `backup completed` payload (§8.10), sent as one JSON string. */
export interface BackupCompletedEvent {
  uuid: string;
  is_successful: boolean;
  checksum: string;
  checksum_type: 'sha1' | '';
  file_size: number;
}

/** `POST /api/servers/<uuid>/backup/<backup>/restore` (§2.4). */
export const restoreRequestSchema = z.object({
  adapter: z.enum(['wings', 's3']),
  truncate_directory: z.boolean().default(false),
  download_url: z.string().optional(),
});
export type RestoreRequest = z.infer<typeof restoreRequestSchema>;

/**
 * The websocket `backup progress` payload (our addition, not Wings'): bytes of the server's files
 * archived so far (file contents, before compression), at most twice a second while a backup runs.
 */
export interface BackupProgressEvent {
  uuid: string;
  bytes_archived: number;
  /**
   * Bytes the backup will read: the server's disk usage, measured as the backup starts (every
   * regular file; ignored files are counted, so it is an upper bound and `bytes_archived` may end
   * below it; never below `bytes_archived`). Absent when the daemon does not measure disk usage
   * (`system.disk_check_interval` 0).
   */
  bytes_total?: number;
}
