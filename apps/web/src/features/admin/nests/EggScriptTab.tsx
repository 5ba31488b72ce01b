import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminEgg } from '../../../api/application/nests.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { TextField } from '../../../components/Field.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import type { CodeEditorHandle } from '../../server/files/editor/CodeEditor.tsx';
import { CodeField } from './CodeField.tsx';
import { useEggOutlet } from './EggViewLayout.tsx';
import { useEggSave, type EggSaveCheck } from './useEggSave.ts';

const FIELDS = ['script.install', 'script.container', 'script.entry', 'script'] as const;
type Field = (typeof FIELDS)[number];

/** /admin/nests/egg/:id/script: the install script (in the code editor), its container and entrypoint. */
export function EggScriptTab() {
  const { egg } = useEggOutlet();
  return <EggScriptForm key={egg.id} egg={egg} />;
}

function EggScriptForm({ egg }: { egg: AdminEgg }) {
  const { t } = useTranslation('admin');
  const script = useRef<CodeEditorHandle>(null);
  const [container, setContainer] = useState(egg.script.container);
  const [entry, setEntry] = useState(egg.script.entry);
  const { errors, other, busy, saved, save } = useEggSave(egg, FIELDS);

  const check = (): EggSaveCheck<Field> => {
    const problems: Partial<Record<Field, string>> = {};
    if (container.trim() === '') problems['script.container'] = t('nests.script.container_required');
    if (entry.trim() === '') problems['script.entry'] = t('nests.script.entry_required');
    if (Object.keys(problems).length > 0) return { problems };
    const install = script.current?.snapshot()?.text;
    return {
      body: {
        script: {
          ...(install === undefined ? {} : { install }),
          container: container.trim(),
          entry: entry.trim(),
        },
      },
    };
  };

  const submit = () => save(check());

  return (
    <form
      noValidate
      aria-label={t('nests.tab.script')}
      className="space-y-6"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {(other.length > 0 || errors.script) && (
        <MessageBox type="error">{[...other, errors.script].filter(Boolean).join(' ')}</MessageBox>
      )}
      {egg.script.extends !== null && (
        <MessageBox type="info">{t('nests.script.copied', { id: egg.script.extends })}</MessageBox>
      )}
      <ContentBox>
        <div className="space-y-4">
          <CodeField
            label={t('nests.script.install')}
            hint={t('nests.script.install_hint')}
            error={errors['script.install']}
            initial={egg.script.install ?? ''}
            mode="shell"
            size="large"
            editorRef={script}
          />
          <div className="grid gap-4 md:grid-cols-2">
            <TextField
              label={t('nests.script.container')}
              value={container}
              spellCheck={false}
              onChange={(event) => setContainer(event.target.value)}
              error={errors['script.container']}
              touched={Boolean(errors['script.container'])}
              hint={t('nests.script.container_hint')}
              className="font-mono"
            />
            <TextField
              label={t('nests.script.entry')}
              value={entry}
              spellCheck={false}
              onChange={(event) => setEntry(event.target.value)}
              error={errors['script.entry']}
              touched={Boolean(errors['script.entry'])}
              hint={t('nests.script.entry_hint')}
              className="font-mono"
            />
          </div>
        </div>
      </ContentBox>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p aria-live="polite" className="text-sm text-emerald-300">
          {saved ? t('nests.script.saved') : ''}
        </p>
        <Button type="submit" isLoading={busy}>
          {t('nests.script.save')}
        </Button>
      </div>
    </form>
  );
}
