import { z } from 'zod';

/**
 * Shapes of the client API's backup routes (reference §3.1 `backup`, §3.3 "Backups"). The panel
 * validates request bodies with the body schemas and builds answers that match the answer schemas;
 * the web app parses answers with them.
 */

/** A `backup` object. In progress while `completed_at` is null; failed when completed and not successful. */
export const clientBackupSchema = z.object({
  uuid: z.string(),
  is_successful: z.boolean(),
  is_locked: z.boolean(),
  name: z.string(),
  ignored_files: z.array(z.string()),
  /** `<algorithm>:<hex>` (e.g. `sha1:…`), set on completion. */
  checksum: z.string().nullable(),
  bytes: z.number().int(),
  /** ISO 8601 with offset. */
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type ClientBackup = z.infer<typeof clientBackupSchema>;

export const clientBackupItemSchema = z.object({
  object: z.literal('backup'),
  attributes: clientBackupSchema,
});
export type ClientBackupItem = z.infer<typeof clientBackupItemSchema>;

/** The `meta.pagination` block of a paginated list (reference §1.3). */
export const clientPaginationSchema = z.object({
  total: z.number().int(),
  count: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  links: z.record(z.string(), z.string()),
});
export type ClientPagination = z.infer<typeof clientPaginationSchema>;

/** Page defaults of `GET …/backups` (reference §1.3). */
export const BACKUP_PAGE_SIZE = 20;
export const BACKUP_PAGE_SIZE_MAX = 50;

/**
 * `GET /api/client/servers/{server}/backups`. `backup_count` counts the non-failed backups (in
 * progress or successful): the figure compared with `feature_limits.backups`.
 */
export const clientBackupListSchema = z.object({
  object: z.literal('list'),
  data: z.array(clientBackupItemSchema),
  meta: z.object({
    backup_count: z.number().int(),
    pagination: clientPaginationSchema,
  }),
});
export type ClientBackupList = z.infer<typeof clientBackupListSchema>;

/** The longest backup name the API accepts. */
export const BACKUP_NAME_MAX = 191;

/** `POST …/backups`. `ignored` is newline-separated; empty lines are dropped. */
export const createBackupBodySchema = z.object({
  name: z.string().max(BACKUP_NAME_MAX).nullable().optional(),
  is_locked: z.boolean().nullable().optional(),
  ignored: z.string().nullable().optional(),
});
export type CreateBackupBody = z.infer<typeof createBackupBodySchema>;

/** `POST …/backups/{backup}/restore`: `truncate` deletes every server file first. */
export const restoreBackupBodySchema = z.object({
  truncate: z.boolean(),
});
export type RestoreBackupBody = z.infer<typeof restoreBackupBodySchema>;

/** `GET …/backups/{backup}/download`: a signed daemon URL valid 15 minutes. */
export const clientSignedUrlSchema = z.object({
  object: z.literal('signed_url'),
  attributes: z.object({ url: z.string() }),
});
export type ClientSignedUrl = z.infer<typeof clientSignedUrlSchema>;

/** Splits an `ignored` body value into the stored `ignored_files` list (empty lines dropped). */
export function ignoredLines(ignored: string | null | undefined): string[] {
  return (ignored ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
