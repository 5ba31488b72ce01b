import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EGG_TEST_DEFAULT_TIMEOUT, EGG_TEST_MAX_TIMEOUT } from '@talon/shared/admin/egg-test-limits';
import { getEggTest, startEggTest, type EggTestRun } from '../../../api/application/eggTests.ts';
import { listEggVariables, type AdminEgg } from '../../../api/application/nests.ts';
import { listNodes } from '../../../api/application/nodes.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { validationProblems } from './apiErrors.ts';
import { EggTestSteps } from './EggTestSteps.tsx';

/** How often a running test is read: often enough that a step's spinner follows it closely. */
const POLL_MS = 700;

const INPUT =
  'focus-ring block w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 text-sm text-zinc-100';
const LABEL = 'block text-xs font-semibold tracking-wide text-zinc-300 uppercase';

/**
 * The admin egg page's Test button (issue 25): a dialog that starts the egg test runner on the
 * panel (node, time limit, variable values), then follows the run step by step to its verdict.
 */
export function EggTestButton({ egg }: { egg: AdminEgg }) {
  const { t } = useTranslation('egg-test');
  const [open, setOpen] = useState(false);
  const [runId, setRunId] = useState<string | null>(null);
  return (
    <>
      <Button
        variant="secondary"
        aria-label={t('button_label', { name: egg.name })}
        onClick={() => setOpen(true)}
      >
        {t('button')}
      </Button>
      <Modal
        visible={open}
        onDismissed={() => setOpen(false)}
        title={t('title', { name: egg.name })}
        size="wide"
      >
        {runId === null ? (
          <EggTestForm egg={egg} onStarted={setRunId} onCancel={() => setOpen(false)} />
        ) : (
          <EggTestProgress runId={runId} onAgain={() => setRunId(null)} onClose={() => setOpen(false)} />
        )}
      </Modal>
    </>
  );
}

function EggTestForm({
  egg,
  onStarted,
  onCancel,
}: {
  egg: AdminEgg;
  onStarted: (runId: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('egg-test');
  const nodes = useQuery({ queryKey: ['egg-test', 'nodes'], queryFn: () => listNodes({ perPage: 100 }) });
  const variables = useQuery({
    queryKey: ['egg-test', 'variables', egg.id],
    queryFn: () => listEggVariables(egg.nestId, egg.id),
  });
  const [node, setNode] = useState('');
  const [timeout, setTimeoutValue] = useState(String(EGG_TEST_DEFAULT_TIMEOUT));
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblems([]);
    startEggTest({
      egg: egg.id,
      node: node === '' ? null : Number(node),
      environment: values,
      timeout: Number(timeout),
    }).then(
      (run) => onStarted(run.id),
      (error: unknown) => {
        setBusy(false);
        const fields = validationProblems(error);
        setProblems(fields.length > 0 ? fields.map((p) => p.detail) : [httpErrorToHuman(error)]);
      },
    );
  };

  if (nodes.isPending || variables.isPending) {
    return (
      <div className="flex items-center gap-3 py-6 text-sm text-zinc-300">
        <Spinner size="small" />
        {t('loading')}
      </div>
    );
  }
  const loadError = nodes.error ?? variables.error;
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-zinc-300">{t('intro')}</p>
      {loadError && <MessageBox type="error">{httpErrorToHuman(loadError)}</MessageBox>}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor="egg-test-node" className={LABEL}>
            {t('node')}
          </label>
          <select id="egg-test-node" className={INPUT} value={node} onChange={(e) => setNode(e.target.value)}>
            <option value="">{t('any_node')}</option>
            {(nodes.data?.items ?? []).map((n) => (
              <option key={n.id} value={String(n.id)}>
                {n.name}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor="egg-test-timeout" className={LABEL}>
            {t('timeout')}
          </label>
          <input
            id="egg-test-timeout"
            className={INPUT}
            type="number"
            min={1}
            max={EGG_TEST_MAX_TIMEOUT}
            value={timeout}
            onChange={(e) => setTimeoutValue(e.target.value)}
            aria-describedby="egg-test-timeout-hint"
          />
          <p id="egg-test-timeout-hint" className="text-xs text-zinc-400">
            {t('timeout_hint')}
          </p>
        </div>
      </div>
      {(variables.data ?? []).length > 0 && (
        <fieldset className="space-y-3">
          <legend className={LABEL}>{t('variables')}</legend>
          <p className="text-xs text-zinc-400">{t('variables_hint')}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            {variables.data!.map((v) => (
              <div key={v.id} className="space-y-1">
                <label htmlFor={`egg-test-var-${v.id}`} className="block text-sm text-zinc-200">
                  {v.name} <code className="text-xs text-zinc-400">{v.envVariable}</code>
                </label>
                <input
                  id={`egg-test-var-${v.id}`}
                  className={INPUT}
                  value={values[v.envVariable] ?? v.defaultValue}
                  onChange={(e) => setValues({ ...values, [v.envVariable]: e.target.value })}
                />
              </div>
            ))}
          </div>
        </fieldset>
      )}
      {problems.length > 0 && (
        <MessageBox type="error">
          {problems.map((p) => (
            <span key={p} className="block">
              {p}
            </span>
          ))}
        </MessageBox>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
        <Button type="submit" isLoading={busy}>
          {t('start')}
        </Button>
      </div>
    </form>
  );
}

function EggTestProgress({
  runId,
  onAgain,
  onClose,
}: {
  runId: string;
  onAgain: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('egg-test');
  const run = useQuery({
    queryKey: ['egg-test', 'run', runId],
    queryFn: () => getEggTest(runId),
    refetchInterval: (query) =>
      query.state.data?.status === 'running' || !query.state.data ? POLL_MS : false,
    retry: (count, error) => !(error instanceof HttpError && error.status === 404) && count < 3,
  });
  if (run.error) {
    const lost = run.error instanceof HttpError && run.error.status === 404;
    return <MessageBox type="error">{lost ? t('lost') : httpErrorToHuman(run.error)}</MessageBox>;
  }
  if (!run.data) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label={t('loading')} />
      </div>
    );
  }
  const data: EggTestRun = run.data;
  const failed = data.steps.find((s) => s.status === 'failed');
  return (
    <div className="space-y-4">
      <EggTestSteps run={data} />
      {data.status === 'running' ? (
        <p className="text-xs text-zinc-400">{t('running_note')}</p>
      ) : (
        <MessageBox
          type={data.status === 'passed' ? 'success' : 'error'}
          title={t(data.status === 'passed' ? 'verdict_passed' : 'verdict_failed')}
        >
          <span data-testid="egg-test-verdict">
            {data.status === 'passed' || !failed
              ? t('passed')
              : t('failed', { step: t(`step.${failed.name}`), message: failed.message ?? '' })}
          </span>
        </MessageBox>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onClose}>
          {t('close')}
        </Button>
        <Button variant="secondary" disabled={data.status === 'running'} onClick={onAgain}>
          {t('again')}
        </Button>
      </div>
    </div>
  );
}
