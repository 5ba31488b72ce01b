import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Overview } from '../../../api/application/overview.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';

/**
 * The steps of a fresh install, in order, each with the screen that does it. The owner's account
 * comes before their server (the server form picks an existing owner, or makes one with "New user").
 */
const STEPS = [
  { done: 'nodeReady', key: 'node', to: '/admin/nodes' },
  { done: 'eggAvailable', key: 'egg', to: '/admin/nests' },
  { done: 'userInvited', key: 'user', to: '/admin/users/new' },
  { done: 'serverCreated', key: 'server', to: '/admin/servers/new' },
] as const;

/** Shown until every step is done: what to do next on a fresh panel, with links. */
export function FirstSteps({ steps }: { steps: Overview['firstSteps'] }) {
  const { t } = useTranslation('admin');
  if (STEPS.every((step) => steps[step.done])) return null;
  const next = STEPS.find((step) => !steps[step.done]);
  return (
    <ContentBox title={t('overview.first_steps')}>
      <ol className="space-y-3">
        {STEPS.map((step, index) => {
          const done = steps[step.done];
          return (
            <li key={step.key} className="flex gap-3" aria-current={step === next ? 'step' : undefined}>
              <span
                aria-hidden="true"
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  done
                    ? 'bg-emerald-600 text-white'
                    : step === next
                      ? 'bg-sky-600 text-white'
                      : 'bg-zinc-700 text-zinc-300'
                }`}
              >
                {done ? '✓' : index + 1}
              </span>
              <div className="min-w-0 text-sm">
                <p className={done ? 'text-zinc-400 line-through' : 'text-zinc-100'}>
                  {t(`overview.step.${step.key}`)}
                  <span className="sr-only">
                    {' '}
                    ({done ? t('overview.step_done') : t('overview.step_todo')})
                  </span>
                </p>
                {!done && (
                  <p className="mt-0.5 text-zinc-400">
                    {t(`overview.step.${step.key}_help`)}{' '}
                    <Link to={step.to} className="focus-ring rounded text-sky-300 hover:underline">
                      {t(`overview.step.${step.key}_link`)}
                    </Link>
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </ContentBox>
  );
}
