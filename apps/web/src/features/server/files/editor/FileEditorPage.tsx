import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getFileContents, saveFileContents } from '../../../../api/files.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { FlashMessageRender } from '../../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../../app/store.ts';
import { Button } from '../../../../components/Button.tsx';
import { ConfirmationModal } from '../../../../components/ConfirmationModal.tsx';
import { MessageBox } from '../../../../components/MessageBox.tsx';
import { ScreenBlock } from '../../../../components/ScreenBlock.tsx';
import { Spinner } from '../../../../components/Spinner.tsx';
import { can } from '../../../../lib/shared.ts';
import { useTitle } from '../../../../lib/useTitle.ts';
import { useServerStore } from '../../store.ts';
import { Breadcrumbs } from '../Breadcrumbs.tsx';
import { FILE_VIEW_FLASH } from '../flash.ts';
import { baseName, directoryFromHash, hashFor, joinPath, parentDirectory } from '../paths.ts';
import { fileListKey } from '../useFileList.ts';
import { CodeEditor, type CodeEditorHandle } from './CodeEditor.tsx';
import { EditorKeysHint } from './EditorKeysHint.tsx';
import { modeFor, MODES, type ModeId } from './modes.ts';
import { NewFileModal } from './NewFileModal.tsx';
import { useLeaveGuard } from './useLeaveGuard.ts';
import { useSaveShortcut } from './useSaveShortcut.ts';

export type EditorAction = 'edit' | 'new';

/** /server/{id}/files/edit#/path */
export function EditFilePage() {
  return <FileEditorPage action="edit" />;
}

/** /server/{id}/files/new#/folder */
export function NewFilePage() {
  return <FileEditorPage action="new" />;
}

/** The file whose lines the backup feature leaves out (spec 001 §2 "File editor"). */
const BACKUP_IGNORE_FILE = '.pteroignore';

export function fileContentsKey(serverId: string, path: string) {
  return ['server', serverId, 'file-contents', path] as const;
}

/**
 * /server/{id}/files/edit#/path and /server/{id}/files/new#/folder (spec 001 §2 "File editor"). The
 * hash names the file (edit) or the folder the new file goes to (new). Each file gets a fresh
 * editor, so nothing carries over from one to the next.
 */
export function FileEditorPage({ action }: { action: EditorAction }) {
  const location = useLocation();
  const path = directoryFromHash(location.hash);
  // The file list passes the type it knows along with the link; a reload has none.
  const mimetype = (location.state as { mimetype?: unknown } | null)?.mimetype;
  return (
    <FileEditor
      key={`${action}:${path}`}
      action={action}
      path={path}
      mimetype={typeof mimetype === 'string' ? mimetype : undefined}
    />
  );
}

function FileEditor({ action, path, mimetype }: { action: EditorAction; path: string; mimetype?: string }) {
  const { t } = useTranslation('files');
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isNew = action === 'new';
  const directory = isNew ? path : parentDirectory(path);
  const fileName = isNew ? '' : baseName(path);
  const filesUrl = `/server/${server.id}/files${hashFor(directory)}`;
  const canSave = can(permissions, isNew ? 'file.create' : 'file.update');
  useTitle(`${server.name} | ${isNew ? t('editor.new_title') : fileName}`);

  const contents = useQuery({
    queryKey: fileContentsKey(server.id, path),
    queryFn: () => getFileContents(server.id, path),
    enabled: !isNew,
    retry: false,
    // The editor owns the text once it is open: no refetch may arrive under the user's typing.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  const editor = useRef<CodeEditorHandle>(null);
  const [mode, setMode] = useState<ModeId>(() => modeFor(fileName, mimetype).id);
  const [saving, setSaving] = useState(false);
  const [naming, setNaming] = useState(false);
  const [dirty, setDirtyState] = useState(false);
  const [saved, setSaved] = useState(false);
  // Read by the leave guard when a link is clicked: current even before React renders again.
  const dirtyNow = useRef(false);
  const setDirty = useCallback((value: boolean) => {
    dirtyNow.current = value;
    setDirtyState(value);
  }, []);
  const leave = useLeaveGuard(dirtyNow, dirty);
  const selectId = useId();
  const keysHintId = useId();

  // A save error belongs to this file: it goes when the user moves on.
  useEffect(() => () => useGlobalStore.getState().clearFlashes(FILE_VIEW_FLASH), []);

  /** Writes the editor's text to `target`; resolves to whether it worked. */
  const write = async (target: string): Promise<boolean> => {
    const snapshot = editor.current?.snapshot();
    if (!snapshot) return false;
    useGlobalStore.getState().clearFlashes(FILE_VIEW_FLASH);
    setSaving(true);
    try {
      await saveFileContents(server.id, target, snapshot.text);
    } catch (error) {
      flashError(FILE_VIEW_FLASH, httpErrorToHuman(error));
      return false;
    } finally {
      setSaving(false);
    }
    editor.current?.markSaved(snapshot.doc);
    setSaved(true);
    void queryClient.invalidateQueries({ queryKey: fileListKey(server.id, parentDirectory(target)) });
    return true;
  };

  const save = () => {
    if (!canSave || saving) return;
    if (isNew) setNaming(true);
    else void write(path);
  };
  useSaveShortcut(save);

  const create = async (name: string) => {
    setNaming(false);
    const target = joinPath(directory, name);
    if (await write(target)) {
      void navigate(`/server/${server.id}/files/edit${hashFor(target)}`, { replace: true });
    }
  };

  if (!isNew && contents.isError) {
    return (
      <ScreenBlock
        title={t('editor.load_failed_title')}
        message={httpErrorToHuman(contents.error)}
        onBack={() => void navigate(filesUrl)}
        actionLabel={t('editor.back')}
      />
    );
  }
  if (!isNew && contents.data === undefined) {
    return (
      <div className="flex justify-center py-16">
        <Spinner size="large" label={t('editor.loading')} />
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <FlashMessageRender byKey={FILE_VIEW_FLASH} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Breadcrumbs directory={directory} filesPath={`/server/${server.id}/files`} current={fileName} />
        {dirty ? (
          <span
            role="status"
            data-testid="unsaved"
            className="shrink-0 self-start rounded bg-amber-950/60 px-2 py-0.5 text-xs font-medium text-amber-200 sm:self-auto"
          >
            {t('editor.unsaved')}
          </span>
        ) : (
          saved && (
            <span
              role="status"
              className="shrink-0 self-start rounded bg-emerald-950/60 px-2 py-0.5 text-xs font-medium text-emerald-300 sm:self-auto"
            >
              {t('editor.saved')}
            </span>
          )
        )}
      </div>
      {fileName === BACKUP_IGNORE_FILE && <MessageBox type="info">{t('editor.ignore_note')}</MessageBox>}
      <div className="overflow-hidden rounded-lg border border-zinc-800 bg-zinc-950">
        <CodeEditor
          ref={editor}
          initial={contents.data ?? ''}
          mode={mode}
          readOnly={!canSave}
          label={isNew ? t('editor.content_new') : t('editor.content', { name: fileName })}
          describedBy={canSave ? keysHintId : undefined}
          onDirtyChange={setDirty}
        />
      </div>
      {/* Read-only, Tab is not taken for indenting: the hint would be wrong there. */}
      {canSave && <EditorKeysHint id={keysHintId} />}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end">
        {!canSave && <p className="flex-1 text-xs text-zinc-400">{t('editor.read_only')}</p>}
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-xs font-semibold tracking-wide text-zinc-300 uppercase">
            {t('editor.mode')}
          </label>
          <select
            id={selectId}
            value={mode}
            onChange={(event) => setMode(event.target.value as ModeId)}
            className="focus-ring block w-full min-w-0 rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500"
          >
            {MODES.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
        {canSave && (
          <Button onClick={save} isLoading={saving} className="whitespace-nowrap">
            {isNew ? t('editor.create') : t('editor.save')}
          </Button>
        )}
      </div>
      {isNew && (
        <NewFileModal
          visible={naming}
          directory={directory}
          onSubmit={(name) => void create(name)}
          onDismissed={() => setNaming(false)}
        />
      )}
      <ConfirmationModal
        visible={leave.pending}
        title={t('editor.leave.title')}
        buttonText={t('editor.leave.confirm')}
        onConfirmed={leave.proceed}
        onDismissed={leave.stay}
      >
        {isNew ? t('editor.leave.text_new') : t('editor.leave.text', { name: fileName })}
      </ConfirmationModal>
    </div>
  );
}
