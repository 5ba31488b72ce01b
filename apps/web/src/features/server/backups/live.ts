import { create } from 'zustand';
import type { Backup } from '../../../api/backups.ts';

/** A running backup's progress from the daemon's `backup progress` events. */
export interface BackupProgress {
  bytesArchived: number;
  /** The server's disk usage when the daemon knows it; absent: no percentage. */
  bytesTotal: number | null;
}

/** What a `backup completed` event says of one backup. */
export interface BackupCompletion {
  isSuccessful: boolean;
  checksum: string | null;
  bytes: number;
  completedAt: Date;
}

/**
 * What the socket said of backups, by uuid, for the current server. Completions are kept too: the
 * event can arrive before the list that shows the new backup (a small server's backup ends within
 * milliseconds), and a list answered before the panel stored the result must not spin for ever.
 */
interface LiveBackups {
  progress: Record<string, BackupProgress>;
  completed: Record<string, BackupCompletion>;
  setProgress: (uuid: string, progress: BackupProgress) => void;
  setCompleted: (uuid: string, completion: BackupCompletion) => void;
  clear: () => void;
}

export const useLiveBackups = create<LiveBackups>((set) => ({
  progress: {},
  completed: {},
  setProgress: (uuid, progress) =>
    set((s) => (s.completed[uuid] ? s : { progress: { ...s.progress, [uuid]: progress } })),
  setCompleted: (uuid, completion) =>
    set((s) => {
      const progress = { ...s.progress };
      delete progress[uuid];
      return { progress, completed: { ...s.completed, [uuid]: completion } };
    }),
  clear: () => set({ progress: {}, completed: {} }),
}));

/** `backup` with a completion the socket reported applied, when the panel's copy is still running. */
export function withCompletion(backup: Backup, completion: BackupCompletion | undefined): Backup {
  if (!completion || backup.completedAt !== null) return backup;
  return {
    ...backup,
    isSuccessful: completion.isSuccessful,
    checksum: completion.checksum,
    bytes: completion.bytes,
    completedAt: completion.completedAt,
  };
}

/**
 * Percent archived (0–100), or null when the total is unknown. The total is the disk usage the
 * daemon last measured: files written since can push the bytes archived past it, and a bar stuck at
 * 100% would then say nothing true, so a total already passed counts as unknown.
 */
export function progressPercent(progress: BackupProgress | undefined): number | null {
  if (!progress?.bytesTotal || progress.bytesArchived > progress.bytesTotal) return null;
  return Math.floor((progress.bytesArchived / progress.bytesTotal) * 100);
}
