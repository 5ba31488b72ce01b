import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { BackupCompletedEvent, BackupProgressEvent, BackupReport } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { Jail } from '../fs/jail.ts';
import { isUuid } from '../fs/paths.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { Server } from '../servers/server.ts';
import { writeBackupArchive } from './archive-writer.ts';
import { backupIgnoreRules } from './ignore-rules.ts';
import { forgetBackupOwner, recordBackupOwner } from './owner.ts';

const LEVELS = { none: 0, best_speed: 1, best_compression: 9 } as const;
/** Least time between two `backup progress` events of one backup. */
const PROGRESS_EVERY_MS = 500;

/** `<backup_directory>/<uuid>.tar.gz`; null for anything that is not a uuid (never a path). */
export function backupFile(config: DaemonConfig, uuid: string): string | null {
  return isUuid(uuid) ? path.join(config.system.backup_directory, `${uuid}.tar.gz`) : null;
}

/** Size of a finished local backup, or null when there is none. */
export async function backupSize(config: DaemonConfig, uuid: string): Promise<number | null> {
  const file = backupFile(config, uuid);
  if (!file) return null;
  const st = await stat(file).catch(() => null);
  return st?.isFile() ? st.size : null;
}

/**
 * Remove the `.part` files a daemon stopped mid-backup left behind (at boot, when no backup runs).
 * They were never served; the panel marks such backups failed or prunes them.
 */
export async function removeStaleParts(config: DaemonConfig): Promise<number> {
  const dir = config.system.backup_directory;
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((n) => n.endsWith('.tar.gz.part'));
  for (const n of stale) await unlink(path.join(dir, n)).catch(() => undefined);
  return stale.length;
}

/** Remove a local backup; false when there was none. */
export async function deleteBackup(config: DaemonConfig, uuid: string): Promise<boolean> {
  const file = backupFile(config, uuid);
  if (!file) return false;
  await forgetBackupOwner(config, uuid);
  try {
    await unlink(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Create a local backup of `server` (protocol §8.10) and report it: to the panel
 * (`POST /api/remote/backups/<uuid>`) and to consoles (`backup completed`). A failure is reported
 * as `successful: false` with an empty checksum and size 0; no archive is left behind. If the
 * panel cannot be told of a success, the archive is removed (it would be served for nothing).
 */
export async function runBackup(
  server: Server,
  uuid: string,
  ignoreText: string,
  deps: { config: DaemonConfig; remote: RemoteClient; log: Logger },
): Promise<void> {
  const { config, remote, log } = deps;
  let report: BackupReport;
  try {
    const jail = new Jail(server.dir);
    const result = await writeBackupArchive(jail, config.system.backup_directory, `${uuid}.tar.gz`, {
      level: LEVELS[config.system.backups.compression_level],
      writeLimitMiB: config.system.backups.write_limit,
      ignore: await backupIgnoreRules(jail, ignoreText),
      onProgress: progressReporter(server, uuid, await progressTotal(server, config)),
    });
    await recordBackupOwner(config, uuid, server.uuid);
    report = {
      checksum: result.checksum,
      checksum_type: 'sha1',
      size: result.size,
      successful: true,
      parts: null,
    };
  } catch (err) {
    log.warn({ err, server: server.uuid, backup: uuid }, 'backup failed');
    report = { checksum: '', checksum_type: '', size: 0, successful: false, parts: null };
  }
  try {
    await remote.reportBackup(uuid, report);
  } catch (err) {
    log.warn({ err, backup: uuid }, 'could not report the backup to the panel');
    if (report.successful) await deleteBackup(config, uuid);
  }
  const event: BackupCompletedEvent = {
    uuid,
    is_successful: report.successful,
    checksum: report.checksum,
    checksum_type: report.checksum_type,
    file_size: report.size,
  };
  server.bus.emit('backup completed', JSON.stringify(event));
}

/**
 * The `bytes_total` of progress events: the server's disk usage (the sizes of its regular files),
 * measured afresh as the backup starts: a walk that only stats, far cheaper than the backup's own
 * reading and compressing, where a cached value could be minutes old. It also refreshes the usage
 * the daemon reports. Undefined with disk checks disabled.
 */
async function progressTotal(server: Server, config: DaemonConfig): Promise<number | undefined> {
  if (config.system.disk_check_interval === 0) return undefined;
  return server.disk.refresh().catch(() => undefined);
}

/** `backup progress` events: the first at once, then at most one per PROGRESS_EVERY_MS. */
function progressReporter(server: Server, uuid: string, total: number | undefined): (bytes: number) => void {
  let last = 0;
  return (bytes) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const event: BackupProgressEvent = {
      uuid,
      bytes_archived: bytes,
      // The server may have grown since it was measured: never more than 100 %.
      ...(total === undefined ? {} : { bytes_total: Math.max(total, bytes) }),
    };
    server.bus.emit('backup progress', JSON.stringify(event));
  };
}
