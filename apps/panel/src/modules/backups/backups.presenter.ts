import type { ClientBackup } from '@talon/shared';
import type { Backup } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';

/** The client API's `backup` object (reference §3.1), attributes in the reference's order. */
export function backupAttributes(b: Backup): ClientBackup {
  return {
    uuid: b.uuid,
    is_successful: b.is_successful === 1,
    is_locked: b.is_locked === 1,
    name: b.name,
    ignored_files: JSON.parse(b.ignored_files) as string[],
    checksum: b.checksum,
    bytes: Number(b.bytes),
    // Rows always have a creation time; `atom` only answers null for a missing one.
    created_at: atom(b.created_at) ?? '',
    completed_at: atom(b.completed_at),
  };
}
