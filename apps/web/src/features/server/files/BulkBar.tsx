import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { DeleteFilesModal } from './DeleteFilesModal.tsx';
import { MoveModal } from './MoveModal.tsx';
import type { useFileActions } from './useFileActions.ts';

/**
 * Shown while entries are selected (spec 001 §2): Move, Archive and Delete, each with its permission.
 * Without any of the three there is nothing to offer, and the page shows no checkboxes either.
 */
export function BulkBar({
  entries,
  directory,
  actions,
  onClear,
}: {
  entries: FileEntry[];
  directory: string;
  actions: ReturnType<typeof useFileActions>;
  onClear: () => void;
}) {
  const { t } = useTranslation('files');
  const permissions = useServerStore((s) => s.permissions);
  const [modal, setModal] = useState<'move' | 'delete' | null>(null);
  const [archiving, setArchiving] = useState(false);
  const canMove = can(permissions, 'file.update');
  const canArchive = can(permissions, 'file.archive');
  const canDelete = can(permissions, 'file.delete');
  if (entries.length === 0 || !(canMove || canArchive || canDelete)) return null;

  return (
    <div className="fixed inset-x-0 bottom-4 z-40 mx-auto max-w-lg px-4">
      <div
        role="region"
        aria-label={t('bulk.label')}
        className="animate-fade flex flex-col gap-2 rounded-lg border border-zinc-700 bg-zinc-900/95 p-3 shadow-2xl backdrop-blur sm:flex-row sm:items-center"
      >
        <div className="flex flex-1 items-center justify-between gap-2">
          <span className="text-sm text-zinc-200" data-testid="bulk-count">
            {t('bulk.selected', { count: entries.length })}
          </span>
          <Button variant="ghost" onClick={onClear}>
            {t('bulk.clear')}
          </Button>
        </div>
        <div className="flex gap-2">
          {canMove && (
            <Button variant="secondary" className="flex-1" onClick={() => setModal('move')}>
              {t('bulk.move')}
            </Button>
          )}
          {canArchive && (
            <Button
              variant="secondary"
              className="flex-1"
              isLoading={archiving}
              onClick={() => {
                setArchiving(true);
                void actions.archive(entries).finally(() => setArchiving(false));
              }}
            >
              {t('bulk.archive')}
            </Button>
          )}
          {canDelete && (
            <Button variant="danger" className="flex-1" onClick={() => setModal('delete')}>
              {t('bulk.delete')}
            </Button>
          )}
        </div>
      </div>
      <MoveModal
        entries={entries}
        directory={directory}
        visible={modal === 'move'}
        onDismissed={() => setModal(null)}
        onMove={(destination) => {
          setModal(null);
          void actions.move(entries, destination);
        }}
      />
      <DeleteFilesModal
        entries={entries}
        visible={modal === 'delete'}
        onDismissed={() => setModal(null)}
        onConfirmed={() => {
          setModal(null);
          void actions.remove(entries);
        }}
      />
    </div>
  );
}
