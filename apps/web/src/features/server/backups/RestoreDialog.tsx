import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Backup } from '../../../api/backups.ts';
import { Button } from '../../../components/Button.tsx';
import { Modal } from '../../../components/Modal.tsx';

/**
 * Confirms a restore (spec 001 §7): says what happens to the server, and offers to delete all of
 * its files first (`truncate`), off unless ticked.
 */
export function RestoreDialog({
  backup,
  busy,
  onConfirmed,
  onDismissed,
}: {
  backup: Backup | null;
  busy: boolean;
  onConfirmed: (truncate: boolean) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('backups');
  return (
    <Modal
      visible={backup !== null}
      title={t('restore.title', { name: backup?.name ?? '' })}
      onDismissed={onDismissed}
      showSpinnerOverlay={busy}
    >
      {/* Keyed by backup: the option starts unticked for every backup. */}
      {backup && (
        <RestoreForm key={backup.uuid} busy={busy} onConfirmed={onConfirmed} onCancel={onDismissed} />
      )}
    </Modal>
  );
}

function RestoreForm({
  busy,
  onConfirmed,
  onCancel,
}: {
  busy: boolean;
  onConfirmed: (truncate: boolean) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('backups');
  const id = useId();
  const [truncate, setTruncate] = useState(false);
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-300">{t('restore.text')}</p>
      <div className="flex items-start gap-3 rounded-md border border-zinc-700 bg-zinc-950/40 p-3">
        <input
          id={id}
          type="checkbox"
          checked={truncate}
          onChange={(event) => setTruncate(event.currentTarget.checked)}
          aria-describedby={`${id}-hint`}
          className="focus-ring mt-0.5 h-4 w-4 shrink-0 accent-red-500"
        />
        <div>
          <label htmlFor={id} className="text-sm font-medium text-zinc-100">
            {t('restore.truncate')}
          </label>
          <p id={`${id}-hint`} className="text-xs text-zinc-400">
            {t('restore.truncate_hint')}
          </p>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t('form.cancel')}
        </Button>
        <Button variant="danger" onClick={() => onConfirmed(truncate)} disabled={busy}>
          {t('restore.confirm')}
        </Button>
      </div>
    </div>
  );
}
