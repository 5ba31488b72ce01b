import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { deletePreview } from './listing.ts';

/**
 * Asks before deleting (spec 001 §9): one entry is named in the title; several are listed, the
 * first 15 by name and the rest as '+ N other(s)'.
 */
export function DeleteFilesModal({
  entries,
  visible,
  onConfirmed,
  onDismissed,
}: {
  entries: FileEntry[];
  visible: boolean;
  onConfirmed: () => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('files');
  const preview = deletePreview(entries.map((e) => e.name));
  const single = entries.length === 1;
  return (
    <Modal
      visible={visible}
      title={
        single
          ? t('delete.title_one', { name: entries[0]!.name })
          : t('delete.title_many', { count: entries.length })
      }
      onDismissed={onDismissed}
    >
      <p className="text-sm text-zinc-300">{t('delete.text')}</p>
      {!single && (
        <ul
          data-testid="delete-list"
          className="mt-3 space-y-1 overflow-y-auto rounded-md bg-zinc-950 p-3 font-mono text-xs text-zinc-200"
        >
          {preview.names.map((name) => (
            <li key={name} className="truncate">
              {name}
            </li>
          ))}
          {preview.others > 0 && (
            <li className="text-zinc-400">{t('delete.others', { n: preview.others })}</li>
          )}
        </ul>
      )}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDismissed}>
          {t('common:modal.cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirmed}>
          {t('delete.confirm')}
        </Button>
      </div>
    </Modal>
  );
}
