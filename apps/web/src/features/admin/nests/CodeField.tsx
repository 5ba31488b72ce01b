import { useId, type Ref } from 'react';
import { EditorKeysHint } from '../../server/files/editor/EditorKeysHint.tsx';
import { CodeEditor, type CodeEditorHandle } from '../../server/files/editor/CodeEditor.tsx';
import type { ModeId } from '../../server/files/editor/modes.ts';

const HEIGHTS = {
  // CodeMirror's theme (un-layered CSS) sets the file editor's 65vh; only !important beats it from
  // Tailwind's utilities layer.
  small: '[&_.cm-editor]:h-56! [&_.cm-editor]:min-h-0!',
  large: '[&_.cm-editor]:h-[28rem]! [&_.cm-editor]:max-h-[70vh]! [&_.cm-editor]:min-h-0!',
} as const;

/**
 * A labelled code editor field: the server file editor's CodeMirror (downloaded the first time one
 * shows), uncontrolled — the form reads `editorRef.current.snapshot()` when it saves. The text area
 * is named by `label`; the error (the API's or the form's) is shown under it.
 */
export function CodeField({
  label,
  hint,
  error,
  initial,
  mode,
  editorRef,
  size = 'small',
}: {
  label: string;
  hint?: string;
  error?: string;
  initial: string;
  mode: ModeId;
  editorRef: Ref<CodeEditorHandle>;
  size?: keyof typeof HEIGHTS;
}) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {label}
      </p>
      <div
        className={`overflow-hidden rounded-md border ${error ? 'border-red-500' : 'border-zinc-700'} ${HEIGHTS[size]}`}
      >
        <CodeEditor
          initial={initial}
          mode={mode}
          readOnly={false}
          label={label}
          describedBy={`${id}-keys`}
          onDirtyChange={noop}
          ref={editorRef}
        />
      </div>
      {error && (
        <p role="alert" className="text-xs break-words text-red-400">
          {error}
        </p>
      )}
      <EditorKeysHint id={`${id}-keys`} before={hint} />
    </div>
  );
}

function noop() {}
