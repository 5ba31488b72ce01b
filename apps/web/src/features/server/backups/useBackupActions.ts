import { httpErrorToHuman } from '../../../api/errors.ts';
import {
  deleteBackup,
  getBackupDownloadUrl,
  restoreBackup,
  toggleBackupLock,
  type Backup,
} from '../../../api/backups.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { fullPage } from '../../../lib/navigation.ts';
import { useServerStore } from '../store.ts';
import { BACKUPS_FLASH } from './flash.ts';
import { useBackupsCache } from './useBackups.ts';

/** Browser alerts, apart so tests can watch them (a lock failure is one: spec 001 §8). */
export const alerts = {
  show(message: string): void {
    window.alert(message);
  },
};

export type BackupActions = ReturnType<typeof useBackupActions>;

/**
 * The row actions of the Backups page (spec 001 §4, §7, §8). Failures are flashed under `backups`,
 * except a lock toggle's, which is a browser alert. Each resolves to whether it worked.
 */
export function useBackupActions() {
  const serverId = useServerStore((s) => s.server!.id);
  const cache = useBackupsCache();
  const clear = () => useGlobalStore.getState().clearFlashes(BACKUPS_FLASH);
  const attempt = async (work: () => Promise<unknown>) => {
    clear();
    try {
      await work();
      return true;
    } catch (error) {
      flashError(BACKUPS_FLASH, httpErrorToHuman(error));
      return false;
    }
  };

  return {
    /** The browser goes to the signed daemon address, which answers with the archive. */
    download: (backup: Backup) =>
      attempt(async () => fullPage.navigate(await getBackupDownloadUrl(serverId, backup.uuid))),

    /** Once accepted the server is restoring: the area shows the 'Restoring from Backup' notice. */
    restore: (backup: Backup, truncate: boolean) =>
      attempt(async () => {
        await restoreBackup(serverId, backup.uuid, truncate);
        useServerStore.getState().patchServer({ status: 'restoring_backup' });
      }),

    toggleLock: async (backup: Backup) => {
      clear();
      try {
        cache.replace(await toggleBackupLock(serverId, backup.uuid));
        return true;
      } catch (error) {
        alerts.show(httpErrorToHuman(error));
        return false;
      }
    },

    remove: (backup: Backup) =>
      attempt(async () => {
        await deleteBackup(serverId, backup.uuid);
        await cache.reload();
      }),

    /** A new backup was started: the list (and its count) is read again. */
    created: () => cache.reload(),
  };
}
