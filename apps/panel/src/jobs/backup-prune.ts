import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import { subjects } from '../modules/backups/backups.service.ts';

/** How often the prune runs: a stale backup waits at most this long beyond BACKUP_PRUNE_AGE. */
const PRUNE_EVERY_MS = 5 * 60_000;

/**
 * One pass of the backup prune: backups still in progress `pruneAgeMinutes` after they started
 * (their daemon died, or never reported) are marked failed, so they stop counting against the limit
 * and can never be downloaded or restored; failed backups completed longer ago than that are
 * removed (soft-deleted). Each step is one conditional UPDATE, so several panels sharing a database
 * may run it at once: every row is changed, and logged, by one of them only.
 */
export async function pruneBackups(
  ctx: Pick<AppContext, 'repositories' | 'services' | 'config'>,
  now: Date = new Date(),
): Promise<{ failed: number; removed: number }> {
  const { backups } = ctx.repositories;
  const cutoff = new Date(now.getTime() - ctx.config.backups.pruneAgeMinutes * 60_000).toISOString();
  const at = now.toISOString();
  const failed = await backups.failStale(cutoff, at);
  for (const b of failed) {
    await ctx.services.activity.log(
      'server:backup.fail',
      { userId: null, apiKeyId: null, ip: null },
      subjects({ id: b.server_id }, b),
      { name: b.name, pruned: true },
    );
  }
  const removed = await backups.removeFailed(cutoff, at);
  return { failed: failed.length, removed: removed.length };
}

/** Runs the prune now and every few minutes until the returned function is called. */
export function startBackupPrune(
  ctx: Pick<AppContext, 'repositories' | 'services' | 'config'>,
  log: Logger,
): () => void {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running) return;
    running = pruneBackups(ctx)
      .then((n) => {
        if (n.failed + n.removed > 0) log.info(n, 'pruned stale backups');
      })
      .catch((err: unknown) => log.warn({ err }, 'could not prune backups'))
      .finally(() => (running = null));
  };
  run();
  const timer = setInterval(run, PRUNE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
