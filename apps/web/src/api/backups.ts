import type {
  ClientBackup,
  ClientBackupItem,
  ClientBackupList,
  ClientSignedUrl,
  CreateBackupBody,
  RestoreBackupBody,
} from '@talon/shared/client/backup-wire';
import { parseWireDate } from '../lib/dates.ts';
import { http } from './http.ts';
import type { Pagination } from './types.ts';

// Types only from the shared schemas: a zod function imported here would land in the chunk the
// sign-in page loads, which is at its size budget.

/** A backup (spec 001 §3). Running while `completedAt` is null; failed when completed and not successful. */
export interface Backup {
  uuid: string;
  name: string;
  isLocked: boolean;
  isSuccessful: boolean;
  ignoredFiles: string[];
  /** `<algorithm>:<hex>`, null until completed. */
  checksum: string | null;
  bytes: number;
  createdAt: Date | null;
  completedAt: Date | null;
}

/** One page of backups, with `meta.backup_count` (the non-failed backups, compared with the limit). */
export interface BackupPage {
  items: Backup[];
  pagination: Pagination;
  backupCount: number;
}

export interface BackupInput {
  name: string;
  /** One pattern a line; blank uses the server's ignore file. */
  ignored: string;
  isLocked: boolean;
}

export function toBackup(wire: ClientBackup): Backup {
  return {
    uuid: wire.uuid,
    name: wire.name,
    isLocked: wire.is_locked,
    isSuccessful: wire.is_successful,
    ignoredFiles: wire.ignored_files,
    checksum: wire.checksum,
    bytes: wire.bytes,
    createdAt: parseWireDate(wire.created_at),
    completedAt: parseWireDate(wire.completed_at),
  };
}

const base = (serverId: string) => `/api/client/servers/${serverId}/backups`;

/** GET .../backups?page. */
export async function getBackups(serverId: string, page: number): Promise<BackupPage> {
  const { data } = await http.get<ClientBackupList>(base(serverId), { params: { page } });
  const p = data.meta.pagination;
  return {
    items: data.data.map(({ attributes }) => toBackup(attributes)),
    pagination: { currentPage: p.current_page, totalPages: p.total_pages, total: p.total },
    backupCount: data.meta.backup_count,
  };
}

/** POST .../backups: starts a backup; answers it, still running. */
export async function createBackup(serverId: string, input: BackupInput): Promise<Backup> {
  const body: CreateBackupBody = {
    name: input.name.trim() === '' ? null : input.name,
    ignored: input.ignored,
    is_locked: input.isLocked,
  };
  const { data } = await http.post<ClientBackupItem>(base(serverId), body);
  return toBackup(data.attributes);
}

/** POST .../backups/{uuid}/lock: toggles the lock; answers the backup as it is now. */
export async function toggleBackupLock(serverId: string, uuid: string): Promise<Backup> {
  const { data } = await http.post<ClientBackupItem>(`${base(serverId)}/${uuid}/lock`);
  return toBackup(data.attributes);
}

/** POST .../backups/{uuid}/restore; `truncate` deletes every file of the server first. */
export async function restoreBackup(serverId: string, uuid: string, truncate: boolean): Promise<void> {
  const body: RestoreBackupBody = { truncate };
  await http.post(`${base(serverId)}/${uuid}/restore`, body);
}

/** DELETE .../backups/{uuid}. */
export async function deleteBackup(serverId: string, uuid: string): Promise<void> {
  await http.delete(`${base(serverId)}/${uuid}`);
}

/** GET .../backups/{uuid}/download: a signed daemon address the browser then opens. */
export async function getBackupDownloadUrl(serverId: string, uuid: string): Promise<string> {
  const { data } = await http.get<ClientSignedUrl>(`${base(serverId)}/${uuid}/download`);
  return data.attributes.url;
}
