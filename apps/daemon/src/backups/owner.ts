import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DaemonConfig } from '../config/config.ts';
import { isUuid } from '../fs/paths.ts';

/**
 * Which server a local backup belongs to: `<backup_directory>/<uuid>.server` holds the server's
 * uuid, written when the archive is finished. Wings keeps archives in one flat folder with nothing
 * to say whose they are, so a download URL naming one server and another server's backup was served
 * (protocol §9.4). `GET /download/backup` serves an archive only to a URL of its own server.
 * Archives made before this record existed (or by Wings, in a migrated folder) have none: they are
 * served as before, bound only by the panel, which signs the backup with its server.
 */
function ownerFile(config: DaemonConfig, backup: string): string | null {
  return isUuid(backup) ? path.join(config.system.backup_directory, `${backup}.server`) : null;
}

export async function recordBackupOwner(config: DaemonConfig, backup: string, server: string): Promise<void> {
  const file = ownerFile(config, backup);
  if (file) await writeFile(file, server, { mode: 0o600 });
}

/** The recorded server of a backup; undefined when none was recorded. */
export async function backupOwner(config: DaemonConfig, backup: string): Promise<string | undefined> {
  const file = ownerFile(config, backup);
  if (!file) return undefined;
  return readFile(file, 'utf8').then(
    (s) => s.trim(),
    () => undefined,
  );
}

export async function forgetBackupOwner(config: DaemonConfig, backup: string): Promise<void> {
  const file = ownerFile(config, backup);
  if (file) await unlink(file).catch(() => undefined);
}
