import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BackupCompletedEvent, BackupProgressEvent } from '@talon/shared/wings/backups';
import { WS_OUTBOUND } from '@talon/shared/wings/events';
import { useServerStore } from '../store.ts';
import { useLiveBackups } from './live.ts';
import { patchCachedBackup } from './useBackups.ts';

/** `bytes_total` (the server's disk usage) is sent only by daemons that know it. */
type ProgressWire = BackupProgressEvent & { bytes_total?: number | null };

function parse<T>(json: string | undefined): T | null {
  try {
    const value: unknown = JSON.parse(json ?? '');
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}

/**
 * Backup events of the server's live connection (spec 001 §4 "Backups", "Conflict state"), for the
 * whole server area: `backup progress` feeds the running row's bar, `backup completed` finishes a row
 * without a reload (wherever the user is meanwhile), and `backup restore completed` refreshes the
 * file list (the store's status is cleared by the connection itself).
 */
export function useBackupEvents(serverId: string): void {
  const socket = useServerStore((s) => s.socket);
  const client = useQueryClient();

  useEffect(() => () => useLiveBackups.getState().clear(), [serverId]);

  useEffect(() => {
    if (!socket) return;
    const live = useLiveBackups.getState();
    const offs = [
      socket.on(WS_OUTBOUND.backupProgress, (json) => {
        const event = parse<ProgressWire>(json);
        if (!event || typeof event.uuid !== 'string') return;
        live.setProgress(event.uuid, {
          bytesArchived: Number(event.bytes_archived) || 0,
          bytesTotal:
            typeof event.bytes_total === 'number' && event.bytes_total > 0 ? event.bytes_total : null,
        });
      }),
      socket.on(WS_OUTBOUND.backupCompleted, (json) => {
        const event = parse<BackupCompletedEvent>(json);
        if (!event || typeof event.uuid !== 'string') return;
        const completion = {
          isSuccessful: event.is_successful === true,
          checksum: event.checksum_type && event.checksum ? `${event.checksum_type}:${event.checksum}` : null,
          bytes: Number(event.file_size) || 0,
          completedAt: new Date(),
        };
        live.setCompleted(event.uuid, completion);
        patchCachedBackup(
          client,
          serverId,
          event.uuid,
          (backup) => (backup.completedAt ? backup : { ...backup, ...completion }),
          // A failed backup no longer counts against the limit.
          (backup) => (backup.completedAt === null && !completion.isSuccessful ? -1 : 0),
        );
      }),
      socket.on(WS_OUTBOUND.backupRestoreCompleted, () => {
        void client.invalidateQueries({ queryKey: ['server', serverId, 'files'] });
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [socket, client, serverId]);
}
