import { useTranslation } from 'react-i18next';

/**
 * How a keyboard user leaves a code editor: Tab indents there, so Esc first, then Tab. Shown under
 * every CodeMirror editor (the file editor, the egg editors); `id` lets the editor point to it.
 */
export function EditorKeysHint({ id, before }: { id?: string; before?: string }) {
  const { t } = useTranslation('files');
  return (
    <p id={id} className="text-xs text-zinc-400" data-testid="editor-keys-hint">
      {before ? `${before} ` : ''}
      {t('editor.keys')}
    </p>
  );
}
