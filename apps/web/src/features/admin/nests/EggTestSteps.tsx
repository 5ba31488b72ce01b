import { useTranslation } from 'react-i18next';
import type { EggTestRun, EggTestStep } from '../../../api/application/eggTests.ts';
import { Spinner } from '../../../components/Spinner.tsx';

const MARK: Record<Exclude<EggTestStep['status'], 'running'>, { sign: string; tone: string }> = {
  pending: { sign: '○', tone: 'text-zinc-500' },
  passed: { sign: '✓', tone: 'text-emerald-400' },
  failed: { sign: '✗', tone: 'text-red-400' },
  skipped: { sign: '–', tone: 'text-zinc-500' },
};

/**
 * The steps of an egg test as they go: a spinner on the running one, then its verdict, time and
 * message; the console lines of a running or failed step are shown, those of a passed one folded.
 */
export function EggTestSteps({ run }: { run: EggTestRun }) {
  const { t } = useTranslation('egg-test');
  return (
    <ol aria-label={t('steps_label')} className="divide-y divide-zinc-800 rounded-md border border-zinc-800">
      {run.steps.map((step) => {
        const mark = step.status === 'running' ? null : MARK[step.status];
        const open = step.status === 'running' || step.status === 'failed';
        return (
          <li
            key={step.name}
            data-testid={`egg-test-step-${step.name}`}
            data-status={step.status}
            className="p-3"
          >
            <div className="flex items-start gap-3">
              <span className="flex h-5 w-5 shrink-0 items-center justify-center" aria-hidden="true">
                {mark ? (
                  <span className={`text-base leading-none ${mark.tone}`}>{mark.sign}</span>
                ) : (
                  <Spinner size="small" />
                )}
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-medium text-zinc-100">{t(`step.${step.name}`)}</span>
                  <span className="text-xs text-zinc-400">
                    {t(`status.${step.status}`)}
                    {step.durationMs !== null &&
                      ` · ${t('seconds', { value: (step.durationMs / 1000).toFixed(1) })}`}
                  </span>
                </div>
                {step.message && (
                  <p
                    className={`mt-1 text-sm break-words ${step.status === 'failed' ? 'text-red-200' : 'text-zinc-300'}`}
                  >
                    {step.message}
                  </p>
                )}
                {step.lines.length > 0 &&
                  (open ? (
                    <Lines lines={step.lines} label={t('lines')} />
                  ) : (
                    <details className="mt-2">
                      <summary className="focus-ring cursor-pointer text-xs text-zinc-400">
                        {t('lines')}
                      </summary>
                      <Lines lines={step.lines} label={t('lines')} />
                    </details>
                  ))}
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function Lines({ lines, label }: { lines: string[]; label: string }) {
  return (
    <pre
      aria-label={label}
      className="mt-2 max-h-48 overflow-auto rounded bg-zinc-950 p-2 font-mono text-xs whitespace-pre-wrap text-zinc-300"
    >
      {lines.join('\n')}
    </pre>
  );
}
