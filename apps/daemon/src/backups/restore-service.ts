import type { FileHandle } from 'node:fs/promises';
import { formatBytesShort } from '@talon/shared';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/config.ts';
import { closeQuietly } from '../fs/at.ts';
import { Jail } from '../fs/jail.ts';
import { runtimeOwner } from '../fs/server-files.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { Server } from '../servers/server.ts';
import { extractArchive, truncateRoot, type ArchivePlan } from './restore.ts';

const MIB = 1024 * 1024;

/** Most time a running server gets to stop by its own stop command before a restore. */
const STOP_GRACE_MS = 2 * 60_000;

/**
 * Restore the checked archive open as `handle` into the server (protocol §8.10), with
 * `server.restoring` already set. A restore that would take the server past its disk limit is
 * refused first, before the server is stopped or a file touched. Then a running server is stopped by its stop command first (never killed), the
 * directory emptied when asked, each entry announced as `daemon message` `(restoring): <name>`.
 * Always afterwards: the panel is told the result, consoles get
 * `Completed server restoration from local backup.` and `backup restore completed`, and the
 * server may be powered again.
 */
export async function runRestore(
  server: Server,
  backup: string,
  handle: FileHandle,
  plan: ArchivePlan,
  truncate: boolean,
  deps: { config: DaemonConfig; remote: RemoteClient; log: Logger },
): Promise<void> {
  let successful = false;
  try {
    const refusal = await overLimit(server, plan, truncate);
    if (refusal) {
      server.bus.emit('daemon message', refusal);
      throw new Error(refusal);
    }
    // As Wings: the server stops by its own stop command; one that does not within the grace is
    // not killed, the restore is abandoned instead.
    if (server.state !== 'offline' && !(await server.stopGracefully(STOP_GRACE_MS))) {
      throw new Error('the server did not stop within 2 minutes');
    }
    const jail = new Jail(server.dir, runtimeOwner(deps.config.runtime));
    if (truncate) await truncateRoot(jail);
    await extractArchive(handle, jail, (name) => server.bus.emit('daemon message', `(restoring): ${name}`));
    successful = true;
  } catch (err) {
    deps.log.warn({ err, server: server.uuid, backup }, 'restore failed');
  } finally {
    await closeQuietly(handle);
  }
  server.disk.refreshIfStale();
  await deps.remote
    .reportRestore(backup, successful)
    .catch((err: unknown) => deps.log.warn({ err, backup }, 'could not report the restore to the panel'));
  server.bus.emit('daemon message', 'Completed server restoration from local backup.');
  server.bus.emit('backup restore completed');
  server.restoring = false;
}

/**
 * Why the restore cannot fit the server's disk limit, or null when it can (or there is no limit).
 *
 * Decided from the first pass over the archive (`checkArchive`, which the route runs anyway
 * before anything changes), not as the entries stream in: tar headers give each file's exact
 * size, so the whole restore is known before it starts, and a refusal leaves the server as it was
 * instead of stopping halfway with part of the backup written. After the restore the server holds
 * the archive's files, plus, without truncation, what it had less the files those replace.
 */
async function overLimit(server: Server, plan: ArchivePlan, truncate: boolean): Promise<string | null> {
  const limit = server.config.settings.build.disk_space * MIB;
  if (limit <= 0) return null;
  const after = truncate ? plan.bytes : (await server.disk.current()) - plan.replaced + plan.bytes;
  if (after <= limit) return null;
  return `This backup cannot be restored: the server would use ${formatBytesShort(after)} of its ${formatBytesShort(limit)} disk limit.`;
}
