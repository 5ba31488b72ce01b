import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { MessageBox } from '../../../../components/MessageBox.tsx';
import { Spinner } from '../../../../components/Spinner.tsx';
import type { Text } from '@codemirror/state';
import type { CodeEditorInstance } from './codemirror.ts';
import type { ModeId } from './modes.ts';

/** What the page asks of the editor. */
export interface CodeEditorHandle {
  /** The text to save and the document it came from; null while CodeMirror is still loading. */
  snapshot(): { text: string; doc: Text } | null;
  /** Marks `doc` as what the file now holds. */
  markSaved(doc: Text): void;
  focus(): void;
}

/**
 * The code editor over `initial` (read once, when it mounts: remount it for another file). CodeMirror
 * is downloaded the first time an editor shows (codemirror.ts is a chunk of its own); a spinner
 * stands in until then.
 */
export function CodeEditor({
  initial,
  mode,
  readOnly,
  label,
  describedBy,
  onDirtyChange,
  ref,
}: {
  initial: string;
  mode: ModeId;
  readOnly: boolean;
  label: string;
  /** Id of the keyboard hint under the editor (set once, when it mounts). */
  describedBy?: string;
  onDirtyChange: (dirty: boolean) => void;
  ref?: Ref<CodeEditorHandle>;
}) {
  const { t } = useTranslation('files');
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<CodeEditorInstance | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The first values go to the editor when it is made; later changes go through the effects below.
  const start = useRef({ initial, mode, readOnly, label, describedBy, onDirtyChange });
  const report = useRef(onDirtyChange);
  useEffect(() => {
    report.current = onDirtyChange;
  }, [onDirtyChange]);

  useEffect(() => {
    let made: CodeEditorInstance | null = null;
    let cancelled = false;
    import('./codemirror.ts').then(
      ({ createCodeEditor }) => {
        if (cancelled || !host.current) return;
        const first = start.current;
        made = createCodeEditor(host.current, {
          doc: first.initial,
          mode: first.mode,
          readOnly: first.readOnly,
          label: first.label,
          describedBy: first.describedBy,
          onDirtyChange: (dirty) => report.current(dirty),
        });
        setEditor(made);
      },
      (error: unknown) => {
        if (!cancelled) setFailure(httpErrorToHuman(error));
      },
    );
    return () => {
      cancelled = true;
      made?.destroy();
    };
  }, []);

  useEffect(() => {
    if (editor && mode !== start.current.mode) editor.setMode(mode);
    start.current.mode = mode;
  }, [editor, mode]);

  useEffect(() => {
    if (editor && readOnly !== start.current.readOnly) editor.setReadOnly(readOnly);
    start.current.readOnly = readOnly;
  }, [editor, readOnly]);

  useImperativeHandle(
    ref,
    () => ({
      snapshot: () => editor?.snapshot() ?? null,
      markSaved: (doc) => editor?.markSaved(doc),
      focus: () => editor?.focus(),
    }),
    [editor],
  );

  return (
    <>
      {failure !== null && (
        <div className="p-4">
          <MessageBox type="error" title={t('editor.editor_failed')}>
            {failure}
          </MessageBox>
        </div>
      )}
      {editor === null && failure === null && (
        <div className="flex justify-center py-16">
          <Spinner size="large" label={t('editor.loading_editor')} />
        </div>
      )}
      <div ref={host} data-testid="code-editor" data-mode={mode} />
    </>
  );
}
