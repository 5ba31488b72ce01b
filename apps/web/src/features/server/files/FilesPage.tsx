import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { ScreenBlock } from '../../../components/ScreenBlock.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { BulkBar } from './BulkBar.tsx';
import { CreateDirectoryModal } from './CreateDirectoryModal.tsx';
import { FileRow } from './FileRow.tsx';
import { PullFileModal } from './PullFileModal.tsx';
import { DIRECTORY_MODAL_FLASH, FILES_FLASH } from './flash.ts';
import { visibleEntries } from './listing.ts';
import { CONTAINER_ROOT, directoryFromHash, hashFor } from './paths.ts';
import { useFileSelection } from './selection.ts';
import { UploadList } from './UploadList.tsx';
import { useDropUpload } from './useDropUpload.ts';
import { useFileActions } from './useFileActions.ts';
import { fileListKey, useFileList } from './useFileList.ts';
import { useUploads } from './useUploads.ts';

/** /server/{id}/files (spec 001 §2 "File manager"): the folder named by the URL hash. */
export function FilesPage() {
  const { t } = useTranslation('files');
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  useTitle(`${server.name} | ${t('title')}`);
  const { hash } = useLocation();
  const directory = directoryFromHash(hash);
  const list = useFileList(server.id, directory);
  const actions = useFileActions(directory);
  const uploads = useUploads(server.id);
  const selected = useFileSelection((s) => s.selected);
  const [creating, setCreating] = useState(false);
  const [pulling, setPulling] = useState(false);
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const canCreate = can(permissions, 'file.create');
  const canOpen = can(permissions, 'file.read-content');
  // Selecting only serves the bulk actions: without any of them there are no checkboxes.
  const selectable = ['file.update', 'file.archive', 'file.delete'].some((p) => can(permissions, p));
  const dragging = useDropUpload(canCreate, (files) => uploads.start(files, directory));

  // A new folder starts with nothing selected and no old messages; so does leaving the page.
  useEffect(() => {
    useFileSelection.getState().clear();
    return () => {
      useFileSelection.getState().clear();
      useGlobalStore.getState().clearFlashes(FILES_FLASH);
    };
  }, [directory]);

  const { entries, truncated } = useMemo(() => visibleEntries(list.data ?? []), [list.data]);
  const chosen = entries.filter((e) => selected.includes(e.name));
  const allChosen = entries.length > 0 && chosen.length === entries.length;
  const now = new Date();

  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = chosen.length > 0 && !allChosen;
  }, [chosen.length, allChosen]);

  return (
    <div className="space-y-4">
      <FlashMessageRender byKey={FILES_FLASH} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Breadcrumbs directory={directory} />
        {canCreate && (
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button
              variant="secondary"
              onClick={() => setCreating(true)}
              className="flex-1 whitespace-nowrap"
            >
              {t('create_directory')}
            </Button>
            <Link
              to={`/server/${server.id}/files/new${hashFor(directory)}`}
              className="focus-ring inline-flex flex-1 items-center justify-center gap-2 rounded-md bg-zinc-700 px-4 py-2 text-sm font-medium whitespace-nowrap text-zinc-100 transition-colors hover:bg-zinc-600"
            >
              {t('new_file')}
            </Link>
            <Button variant="secondary" onClick={() => setPulling(true)} className="flex-1 whitespace-nowrap">
              {t('pull_button')}
            </Button>
            <Button onClick={() => input.current?.click()} className="flex-1 whitespace-nowrap">
              {t('upload_button')}
            </Button>
            <input
              ref={input}
              type="file"
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-label={t('upload.input')}
              data-testid="upload-input"
              onChange={(event) => {
                const files = Array.from(event.currentTarget.files ?? []);
                event.currentTarget.value = '';
                if (files.length > 0) uploads.start(files, directory);
              }}
            />
          </div>
        )}
      </div>
      <UploadList uploads={uploads.uploads} onCancel={uploads.cancel} />

      {list.isError && !list.data ? (
        <ScreenBlock
          title={t('load_failed_title')}
          message={httpErrorToHuman(list.error)}
          onRetry={() => void list.refetch()}
          actionLabel={t('retry')}
        />
      ) : !list.data ? (
        <div className="flex justify-center py-16">
          <Spinner size="large" label={t('loading')} />
        </div>
      ) : (
        <>
          {truncated && <MessageBox type="warning">{t('too_large')}</MessageBox>}
          <div className="rounded-lg border border-zinc-800 bg-zinc-900/80">
            <div className="flex items-center gap-3 border-b border-zinc-800 px-3 py-2 text-xs font-semibold tracking-wide text-zinc-400 uppercase sm:px-4">
              {selectable && (
                <input
                  ref={selectAll}
                  type="checkbox"
                  checked={allChosen}
                  disabled={entries.length === 0}
                  onChange={() =>
                    useFileSelection.getState().setAll(allChosen ? [] : entries.map((e) => e.name))
                  }
                  aria-label={t('select_all')}
                  className="focus-ring h-4 w-4 shrink-0"
                />
              )}
              <span className="w-5 shrink-0" aria-hidden="true" />
              <span className="flex-1">{t('column.name')}</span>
              <span className="hidden w-[144px] text-right sm:block">{t('column.size')}</span>
              <span className="hidden w-[144px] text-right sm:block">{t('column.modified')}</span>
              <span className="w-8 shrink-0" aria-hidden="true" />
            </div>
            {entries.length === 0 ? (
              <p className="px-4 py-12 text-center text-sm text-zinc-400">{t('empty')}</p>
            ) : (
              <ul aria-label={t('title')} className="divide-y divide-zinc-800">
                {entries.map((entry) => (
                  <FileRow
                    key={entry.key}
                    entry={entry}
                    directory={directory}
                    selectable={selectable}
                    canOpen={canOpen}
                    selected={selected.includes(entry.name)}
                    onToggle={() => useFileSelection.getState().toggle(entry.name)}
                    actions={actions}
                    now={now}
                  />
                ))}
              </ul>
            )}
          </div>
        </>
      )}

      {/* Room for the bulk bar, so it never covers the last rows. */}
      {chosen.length > 0 && <div className="h-40" aria-hidden="true" />}
      <BulkBar
        entries={chosen}
        directory={directory}
        actions={actions}
        onClear={() => useFileSelection.getState().clear()}
      />
      <CreateDirectoryModal
        visible={creating}
        directory={directory}
        onDismissed={() => setCreating(false)}
        onCreated={(name) => {
          useGlobalStore.getState().clearFlashes(DIRECTORY_MODAL_FLASH);
          setCreating(false);
          actions.addFolder(name);
        }}
      />
      <PullFileModal
        visible={pulling}
        directory={directory}
        onDismissed={() => setPulling(false)}
        onPulled={(into) => {
          setPulling(false);
          void queryClient.invalidateQueries({ queryKey: fileListKey(server.id, into) });
        }}
      />
      {dragging && (
        <div
          data-testid="drop-overlay"
          className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-zinc-950/70 p-6"
        >
          <div className="rounded-lg border-2 border-dashed border-sky-400 bg-zinc-900/95 p-8 text-center">
            <p className="text-lg font-semibold text-zinc-100">{t('drop.title')}</p>
            <p className="mt-2 font-mono text-sm break-all text-zinc-300">
              {t('drop.text', { path: `${CONTAINER_ROOT}${directory === '/' ? '' : directory}` })}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
