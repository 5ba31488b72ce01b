import { useTranslation } from 'react-i18next';
import type { Backup } from '../../../api/backups.ts';
import { Button } from '../../../components/Button.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { can, formatBytes } from '../../../lib/shared.ts';
import { formatModified } from '../files/time.ts';
import { useServerStore } from '../store.ts';
import { BackupMenu, type BackupMenuItem } from './BackupMenu.tsx';
import { BackupProgressBar } from './BackupProgressBar.tsx';

/** What a row asks the page to do; the page holds the confirmations. */
export interface RowRequests {
  download: (backup: Backup) => void;
  restore: (backup: Backup) => void;
  toggleLock: (backup: Backup) => void;
  remove: (backup: Backup) => void;
}

const ArchiveIcon = () => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    className="h-6 w-6"
    aria-hidden="true"
  >
    <rect x="3" y="4" width="18" height="5" rx="1" />
    <path d="M5 9v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V9M10 13h4" />
  </svg>
);

const LockIcon = () => (
  <svg viewBox="0 0 20 20" fill="currentColor" className="h-3.5 w-3.5" aria-hidden="true">
    <path d="M6 8V6a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 16 9.5v7a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 4 16.5v-7A1.5 1.5 0 0 1 5.5 8H6Zm2 0h4V6a2 2 0 1 0-4 0v2Z" />
  </svg>
);

/**
 * One backup (spec 001 §3, §4): running (spinner, live progress, menu disabled), completed (size,
 * checksum, time, and the menu the caller's permissions allow) or failed (a 'Failed' badge and only
 * a delete button).
 */
export function BackupRow({
  backup,
  menuOpen,
  onMenuOpenChange,
  requests,
}: {
  backup: Backup;
  menuOpen: boolean;
  onMenuOpenChange: (open: boolean) => void;
  requests: RowRequests;
}) {
  const { t } = useTranslation('backups');
  const permissions = useServerStore((s) => s.permissions);
  const mayDownload = can(permissions, 'backup.download');
  const mayRestore = can(permissions, 'backup.restore');
  const mayDelete = can(permissions, 'backup.delete');
  const running = backup.completedAt === null;
  const failed = !running && !backup.isSuccessful;

  const items: BackupMenuItem[] = [];
  if (mayDownload)
    items.push({ id: 'download', label: t('menu.download'), run: () => requests.download(backup) });
  if (mayRestore)
    items.push({ id: 'restore', label: t('menu.restore'), run: () => requests.restore(backup) });
  if (mayDelete) {
    items.push({
      id: 'lock',
      label: backup.isLocked ? t('menu.unlock') : t('menu.lock'),
      run: () => requests.toggleLock(backup),
    });
    // Locked backups cannot be deleted (spec 001 §4): the item says why instead of failing.
    items.push({
      id: 'delete',
      label: backup.isLocked ? t('menu.delete_locked') : t('menu.delete'),
      danger: true,
      disabled: backup.isLocked,
      run: () => requests.remove(backup),
    });
  }

  return (
    <li
      data-testid={`backup-${backup.uuid}`}
      data-state={running ? 'running' : failed ? 'failed' : 'completed'}
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-3 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm sm:p-5 md:grid-cols-[minmax(0,1fr)_minmax(0,16rem)_auto] md:gap-x-6"
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className="hidden shrink-0 pt-0.5 text-zinc-500 sm:block">
          {running ? <Spinner size="small" label={t('running')} /> : <ArchiveIcon />}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            {running && (
              <span className="sm:hidden">
                <Spinner size="small" label={t('running')} />
              </span>
            )}
            <p className="min-w-0 text-sm font-medium break-words text-zinc-100">{backup.name}</p>
            {failed && (
              <span className="rounded bg-red-950 px-2 py-0.5 text-xs font-semibold tracking-wide text-red-300 uppercase ring-1 ring-red-500/40">
                {t('failed')}
              </span>
            )}
            {backup.isLocked && (
              <span
                className="inline-flex items-center gap-1 rounded bg-amber-950/70 px-2 py-0.5 text-xs font-semibold text-amber-300 ring-1 ring-amber-500/40"
                data-testid="backup-locked"
              >
                <LockIcon />
                {t('locked')}
              </span>
            )}
          </div>
          <p className="mt-0.5 text-xs text-zinc-400">
            {running ? t('running') : `${t('created')} `}
            {!running && backup.createdAt && (
              <time dateTime={backup.createdAt.toISOString()} title={backup.createdAt.toLocaleString()}>
                {formatModified(backup.createdAt)}
              </time>
            )}
          </p>
          {running && <BackupProgressBar uuid={backup.uuid} name={backup.name} />}
        </div>
      </div>
      {/* Size and checksum: a column of their own on wide screens, under the name on a phone. */}
      <dl
        className={`col-span-2 row-start-2 min-w-0 space-y-0.5 text-xs md:col-span-1 md:row-start-1 md:col-start-2 ${running || failed ? 'hidden md:block' : ''}`}
      >
        {!running && !failed && (
          <>
            <div className="flex gap-2">
              <dt className="text-zinc-500">{t('size')}</dt>
              <dd className="text-zinc-200" data-testid="backup-size">
                {formatBytes(backup.bytes)}
              </dd>
            </div>
            <div className="flex min-w-0 gap-2">
              <dt className="shrink-0 text-zinc-500">{t('checksum')}</dt>
              <dd
                className="min-w-0 truncate font-mono text-zinc-300"
                title={backup.checksum ?? undefined}
                data-testid="backup-checksum"
              >
                {backup.checksum}
              </dd>
            </div>
          </>
        )}
      </dl>
      <div className="col-start-2 row-start-1 flex justify-end md:col-start-3">
        {failed
          ? mayDelete && (
              <Button
                variant="danger"
                onClick={() => requests.remove(backup)}
                aria-label={t('delete_failed_label', { name: backup.name })}
              >
                {t('menu.delete')}
              </Button>
            )
          : // The menu shows with any of download, restore or delete (spec 001 §6).
            items.length > 0 && (
              <BackupMenu
                name={backup.name}
                items={items}
                disabled={running}
                open={menuOpen}
                onOpenChange={onMenuOpenChange}
              />
            )}
      </div>
    </li>
  );
}
