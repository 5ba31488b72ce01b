import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { importEgg, type EggImportResult } from '../../../api/application/nests.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField } from '../../../components/Field.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { problemsByField, reasonOf, validationProblems, type FieldProblem } from './apiErrors.ts';
import { eggHref } from './eggLinks.ts';

/**
 * Import an egg file (PTDL / PLCN, JSON or YAML) into a nest, chosen from disk or pasted. A refused
 * file shows every problem the importer found, each with its place in the file; an accepted one
 * shows the importer's warnings and a link to the egg.
 */
export function ImportEggForm({ nestId }: { nestId: number }) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const fileId = useId();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<EggImportResult | null>(null);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    try {
      setText(await readText(file));
      setFileName(file.name);
      setMissing(false);
    } catch (error) {
      setFailure((error as Error).message);
    }
  };

  const submit = async () => {
    setResult(null);
    setProblems([]);
    setFailure(null);
    if (text.trim() === '') {
      setMissing(true);
      return;
    }
    setBusy(true);
    try {
      const imported = await importEgg(nestId, text);
      setResult(imported);
      await client.invalidateQueries({ queryKey: ['admin', 'nests'] });
    } catch (error) {
      const found = validationProblems(error);
      if (found.length > 0) setProblems(found);
      else setFailure(problemsByField(error, []).other.join(' '));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('nests.import.title')}
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="space-y-1">
        <label htmlFor={fileId} className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
          {t('nests.import.file')}
        </label>
        <input
          id={fileId}
          type="file"
          accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
          aria-describedby={`${fileId}-hint`}
          onChange={(event) => void readFile(event.target.files?.[0])}
          className="focus-ring block w-full rounded-md text-sm text-zinc-300 file:mr-3 file:rounded-md file:border-0 file:bg-zinc-700 file:px-3 file:py-2 file:text-sm file:font-medium file:text-zinc-100 hover:file:bg-zinc-600"
        />
        <p id={`${fileId}-hint`} className="text-xs text-zinc-400">
          {fileName ? t('nests.import.file_chosen', { name: fileName }) : t('nests.import.file_hint')}
        </p>
      </div>
      <TextAreaField
        label={t('nests.import.paste')}
        value={text}
        rows={6}
        wrap="off"
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          setFileName(null);
          setMissing(false);
        }}
        error={t('nests.import.missing')}
        touched={missing}
        hint={t('nests.import.paste_hint')}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={busy}>
          {t('nests.import.submit')}
        </Button>
      </div>
      <div aria-live="polite" className="space-y-3">
        {failure && <MessageBox type="error">{failure}</MessageBox>}
        {problems.length > 0 && (
          <MessageBox type="error" title={t('nests.import.refused_title')}>
            <div className="min-w-0 space-y-2">
              <p>{t('nests.import.refused', { count: problems.length })}</p>
              <ul className="list-disc space-y-1 pl-5" aria-label={t('nests.import.problems')}>
                {problems.map((problem, index) => (
                  <li key={index} className="break-words">
                    <code className="rounded bg-black/30 px-1 py-0.5 text-xs">
                      {problem.field || t('nests.import.whole_file')}
                    </code>{' '}
                    {reasonOf(problem)}
                  </li>
                ))}
              </ul>
            </div>
          </MessageBox>
        )}
        {result && <ImportOutcome result={result} />}
      </div>
    </form>
  );
}

/** A chosen file's text (FileReader: every browser has it, and so does the test DOM). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

function ImportOutcome({ result }: { result: EggImportResult }) {
  const { t } = useTranslation('admin');
  const { egg, meta } = result;
  return (
    <>
      <MessageBox type="success">
        <span className="flex flex-1 flex-wrap items-center justify-between gap-2">
          <span>
            {meta.action === 'updated'
              ? t('nests.import.updated', { name: egg.name, by: meta.matched?.by ?? 'name' })
              : t('nests.import.imported', { name: egg.name })}
          </span>
          <Link to={eggHref(egg)} className="focus-ring rounded font-medium text-sky-300 underline">
            {t('nests.import.open', { name: egg.name })}
          </Link>
        </span>
      </MessageBox>
      {meta.warnings.length > 0 && (
        <MessageBox type="warning" title={t('nests.import.warnings_title')}>
          <ul className="list-disc space-y-1 pl-5" aria-label={t('nests.import.warnings_title')}>
            {meta.warnings.map((warning, index) => (
              <li key={index} className="break-words">
                {warning}
              </li>
            ))}
          </ul>
        </MessageBox>
      )}
    </>
  );
}
