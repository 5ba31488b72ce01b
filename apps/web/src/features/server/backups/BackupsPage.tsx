import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Backup } from '../../../api/backups.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ConfirmationModal } from '../../../components/ConfirmationModal.tsx';
import { ScreenBlock } from '../../../components/ScreenBlock.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { BackupRow, type RowRequests } from './BackupRow.tsx';
import { CreateBackupModal } from './CreateBackupModal.tsx';
import { BACKUPS_FLASH } from './flash.ts';
import { useLiveBackups, withCompletion } from './live.ts';
import { RestoreDialog } from './RestoreDialog.tsx';
import { useBackupActions } from './useBackupActions.ts';
import { useBackups } from './useBackups.ts';

/** The confirmation shown: a restore, an unlock or a delete of one backup. */
type Dialog = { kind: 'restore' | 'unlock' | 'delete'; backup: Backup } | null;

/** /server/{id}/backups (spec 001 §2 "Backups"): the paginated list and the 'Create backup' modal. */
export function BackupsPage() {
  const { t } = useTranslation('backups');
  const serverName = useServerStore((s) => s.server!.name);
  const limit = useServerStore((s) => s.server!.featureLimits.backups ?? 0);
  const mayCreate = useServerStore((s) => can(s.permissions, 'backup.create'));
  const completed = useLiveBackups((s) => s.completed);
  const [page, setPage] = useState(1);
  const backups = useBackups(page);
  const actions = useBackupActions();
  const [creating, setCreating] = useState(false);
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    // A message left from an earlier visit no longer matches what is shown.
    useGlobalStore.getState().clearFlashes(BACKUPS_FLASH);
  }, []);
  // A page emptied by deletes (the last one) falls back to the one before it.
  const emptied = backups.data?.items.length === 0 && page > 1;
  useEffect(() => {
    if (emptied) setPage((p) => Math.max(1, p - 1));
  }, [emptied]);

  if (backups.isPending || (backups.isError && backups.isFetching)) return <CenteredSpinner />;
  if (backups.isError) {
    return (
      <ScreenBlock
        title={t('load_failed')}
        message={httpErrorToHuman(backups.error)}
        onRetry={() => void backups.refetch()}
      />
    );
  }
  const data = backups.data;
  const list = data.items.map((b) => withCompletion(b, completed[b.uuid]));
  const totalPages = Math.max(1, data.pagination.totalPages);
  const currentPage = data.pagination.currentPage;

  const run = async (work: () => Promise<boolean>) => {
    setBusy(true);
    await work();
    setBusy(false);
    setDialog(null);
  };
  const requests: RowRequests = {
    download: (backup) => void actions.download(backup),
    restore: (backup) => setDialog({ kind: 'restore', backup }),
    // Locking is immediate; unlocking needs a confirmation (spec 001 §4).
    toggleLock: (backup) =>
      backup.isLocked ? setDialog({ kind: 'unlock', backup }) : void actions.toggleLock(backup),
    remove: (backup) => setDialog({ kind: 'delete', backup }),
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-xl font-semibold text-zinc-100">{t('title')}</h1>
        {mayCreate && limit > 0 && data.backupCount < limit && (
          <Button onClick={() => setCreating(true)} className="w-full sm:w-auto">
            {t('create')}
          </Button>
        )}
      </div>
      <FlashMessageRender byKey={BACKUPS_FLASH} />
      <p className="text-sm text-zinc-400" data-testid="backup-limit">
        {limit === 0 ? t('limit_zero') : t('limit', { used: data.backupCount, limit })}
      </p>
      {list.length === 0 ? (
        <p className="py-4 text-center text-sm text-zinc-400">{t('empty')}</p>
      ) : (
        <ul
          className={`space-y-3 ${backups.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-label={t('list_label')}
          aria-busy={backups.isFetching}
        >
          {list.map((backup) => (
            <BackupRow
              key={backup.uuid}
              backup={backup}
              menuOpen={openMenu === backup.uuid}
              onMenuOpenChange={(open) => setOpenMenu(open ? backup.uuid : null)}
              requests={requests}
            />
          ))}
        </ul>
      )}
      {totalPages > 1 && (
        <nav aria-label={t('pagination')} className="flex items-center justify-between gap-2">
          <Button variant="secondary" disabled={currentPage <= 1} onClick={() => setPage(currentPage - 1)}>
            {t('previous')}
          </Button>
          <span className="text-sm text-zinc-400" aria-live="polite">
            {t('page', { page: currentPage, total: totalPages })}
          </span>
          <Button
            variant="secondary"
            disabled={currentPage >= totalPages}
            onClick={() => setPage(currentPage + 1)}
          >
            {t('next')}
          </Button>
        </nav>
      )}
      <CreateBackupModal
        visible={creating}
        onCreated={() => {
          setCreating(false);
          void actions.created();
        }}
        onDismissed={() => setCreating(false)}
      />
      <RestoreDialog
        backup={dialog?.kind === 'restore' ? dialog.backup : null}
        busy={busy}
        onConfirmed={(truncate) => dialog && void run(() => actions.restore(dialog.backup, truncate))}
        onDismissed={() => setDialog(null)}
      />
      <ConfirmationModal
        visible={dialog?.kind === 'unlock'}
        title={t('unlock.title', { name: dialog?.backup.name ?? '' })}
        buttonText={t('unlock.confirm')}
        onConfirmed={() => dialog && void run(() => actions.toggleLock(dialog.backup))}
        onDismissed={() => setDialog(null)}
        busy={busy}
      >
        {t('unlock.text')}
      </ConfirmationModal>
      <ConfirmationModal
        visible={dialog?.kind === 'delete'}
        title={t('delete.title', { name: dialog?.backup.name ?? '' })}
        buttonText={t('delete.confirm')}
        onConfirmed={() => dialog && void run(() => actions.remove(dialog.backup))}
        onDismissed={() => setDialog(null)}
        busy={busy}
      >
        {t('delete.text')}
      </ConfirmationModal>
    </div>
  );
}
