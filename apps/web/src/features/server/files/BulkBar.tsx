import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../../api/files.ts';
import { Button } from '../../../components/Button.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { DeleteFilesModal } from './DeleteFilesModal.tsx';
import { MoveModal } from './MoveModal.tsx';
import type { useFileActions } from './useFileActions.ts';

/** Shown while entries are selected (spec 001 §2): Move, Archive and Delete, each with its permission. */
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
  if (entries.length === 0) return null;

  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4">
      <div
        role="region"
        aria-label={t('bulk.label')}
        className="animate-fade pointer-events-auto flex w-full max-w-xl flex-wrap items-center gap-2 rounded-lg border border-zinc-700 bg-zinc-900/95 p-3 shadow-2xl backdrop-blur"
      >
        <span className="mr-auto text-sm text-zinc-200" data-testid="bulk-count">
          {t('bulk.selected', { count: entries.length })}
        </span>
        <Button variant="ghost" onClick={onClear}>
          {t('bulk.clear')}
        </Button>
        {can(permissions, 'file.update') && (
          <Button variant="secondary" onClick={() => setModal('move')}>
            {t('bulk.move')}
          </Button>
        )}
        {can(permissions, 'file.archive') && (
          <Button
            variant="secondary"
            isLoading={archiving}
            onClick={() => {
              setArchiving(true);
              void actions.archive(entries).finally(() => setArchiving(false));
            }}
          >
            {t('bulk.archive')}
          </Button>
        )}
        {can(permissions, 'file.delete') && (
          <Button variant="danger" onClick={() => setModal('delete')}>
            {t('bulk.delete')}
          </Button>
        )}
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
