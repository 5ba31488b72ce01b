import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminEgg } from '../../../api/application/nests.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import type { CodeEditorHandle } from '../../server/files/editor/CodeEditor.tsx';
import { CodeField } from './CodeField.tsx';
import {
  DockerImagesEditor,
  imageRowsProblem,
  toImageMap,
  toImageRows,
  type ImageRow,
} from './DockerImagesEditor.tsx';
import { useEggOutlet } from './EggViewLayout.tsx';
import { parseSection, sectionText } from './eggJson.ts';
import { useEggSave, type EggSaveCheck } from './useEggSave.ts';

/** The fields of this form, by the API's names (a 422's source_field lands on the one holding it). */
const FIELDS = [
  'name',
  'description',
  'docker_images',
  'startup',
  'config.stop',
  'config.files',
  'config.startup',
  'config.logs',
  'config.file_denylist',
  'config',
] as const;
type Field = (typeof FIELDS)[number];

/** /admin/nests/egg/:id: name, description, images, start-up and stop, config files, denylist. */
export function EggConfigurationTab() {
  const { egg } = useEggOutlet();
  // A fresh form (and fresh editors) for each egg and each saved version of it.
  return <EggConfigurationForm key={`${egg.id}`} egg={egg} />;
}

function EggConfigurationForm({ egg }: { egg: AdminEgg }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const [name, setName] = useState(egg.name);
  const [description, setDescription] = useState(egg.description ?? '');
  const [images, setImages] = useState<ImageRow[]>(() => toImageRows(egg.dockerImages));
  const [startup, setStartup] = useState(egg.startup);
  const [stop, setStop] = useState(egg.config.stop ?? '');
  const [denylist, setDenylist] = useState((egg.config.file_denylist ?? []).join('\n'));
  const files = useRef<CodeEditorHandle>(null);
  const startDetection = useRef<CodeEditorHandle>(null);
  const logs = useRef<CodeEditorHandle>(null);
  const { errors, other, busy, saved, save } = useEggSave(egg, FIELDS);

  const check = (): EggSaveCheck<Field> => {
    const problems: Partial<Record<Field, string>> = {};
    if (name.trim() === '') problems.name = t('nests.config.name_required');
    else if (name.length > 191) problems.name = t('nests.config.too_long');
    if (startup.trim() === '') problems.startup = t('nests.config.startup_required');
    const imageProblem = imageRowsProblem(images, t);
    if (imageProblem) problems.docker_images = imageProblem;
    const sections: Record<string, Record<string, unknown>> = {};
    for (const [field, editor] of [
      ['config.files', files],
      ['config.startup', startDetection],
      ['config.logs', logs],
    ] as const) {
      const text = editor.current?.snapshot()?.text;
      if (text === undefined) continue; // still loading: the stored value stays
      const parsed = parseSection(text);
      if ('problem' in parsed) problems[field] = parsed.problem;
      else sections[field.slice('config.'.length)] = parsed.value;
    }
    if (Object.keys(problems).length > 0) return { problems };
    return {
      body: {
        name,
        description: description.trim() === '' ? null : description,
        docker_images: toImageMap(images),
        startup,
        config: {
          ...sections,
          stop,
          file_denylist: denylist
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        },
      },
    };
  };

  const submit = () =>
    save(check(), () => void client.invalidateQueries({ queryKey: ['admin', 'nests', 'view'] }));

  return (
    <form
      noValidate
      aria-label={t('nests.tab.configuration')}
      className="space-y-6"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {(other.length > 0 || errors.config) && (
        <MessageBox type="error">{[...other, errors.config].filter(Boolean).join(' ')}</MessageBox>
      )}
      <ContentBox title={t('nests.config.about')}>
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label={t('nests.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={errors.name}
            touched={Boolean(errors.name)}
          />
          <TextAreaField
            label={t('nests.description_label')}
            value={description}
            rows={2}
            onChange={(event) => setDescription(event.target.value)}
            error={errors.description}
            touched={Boolean(errors.description)}
          />
        </div>
      </ContentBox>
      <ContentBox title={t('nests.config.running')}>
        <div className="space-y-4">
          <DockerImagesEditor rows={images} onChange={setImages} error={errors.docker_images} />
          <TextAreaField
            label={t('nests.config.startup')}
            value={startup}
            rows={2}
            spellCheck={false}
            onChange={(event) => setStartup(event.target.value)}
            error={errors.startup}
            touched={Boolean(errors.startup)}
            hint={t('nests.config.startup_hint', { example: '{{SERVER_JARFILE}}' })}
          />
          <TextField
            label={t('nests.config.stop')}
            value={stop}
            spellCheck={false}
            onChange={(event) => setStop(event.target.value)}
            error={errors['config.stop']}
            touched={Boolean(errors['config.stop'])}
            hint={t('nests.config.stop_hint')}
            className="font-mono"
          />
        </div>
      </ContentBox>
      <ContentBox title={t('nests.config.files_title')}>
        <div className="space-y-4">
          <CodeField
            label={t('nests.config.files')}
            hint={t('nests.config.files_hint')}
            error={errors['config.files']}
            initial={sectionText(egg.config.files)}
            mode="json"
            editorRef={files}
          />
          <div className="grid gap-4 lg:grid-cols-2">
            <CodeField
              label={t('nests.config.start_detection')}
              hint={t('nests.config.start_detection_hint')}
              error={errors['config.startup']}
              initial={sectionText(egg.config.startup)}
              mode="json"
              editorRef={startDetection}
            />
            <CodeField
              label={t('nests.config.logs')}
              hint={t('nests.config.logs_hint')}
              error={errors['config.logs']}
              initial={sectionText(egg.config.logs)}
              mode="json"
              editorRef={logs}
            />
          </div>
          <TextAreaField
            label={t('nests.config.denylist')}
            value={denylist}
            rows={3}
            spellCheck={false}
            onChange={(event) => setDenylist(event.target.value)}
            error={errors['config.file_denylist']}
            touched={Boolean(errors['config.file_denylist'])}
            hint={t('nests.config.denylist_hint')}
          />
        </div>
      </ContentBox>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p aria-live="polite" className="text-sm text-emerald-300">
          {saved ? t('nests.config.saved') : ''}
        </p>
        <Button type="submit" isLoading={busy}>
          {t('nests.config.save')}
        </Button>
      </div>
    </form>
  );
}
