import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '../../../api/schedules.ts';
import { CronWordsText, RunTime, ScheduleBadge, cronExpression } from './parts.tsx';

/**
 * One schedule of the list (spec 001 §2): a link to `{current url}/{id}` with its name, the cron in
 * words beside the five fields, the last and next run, and its badge.
 */
export function ScheduleRow({ schedule, href }: { schedule: Schedule; href: string }) {
  const { t } = useTranslation('schedules');
  return (
    <li data-testid={`schedule-${schedule.id}`}>
      <Link
        to={href}
        className="focus-ring flex flex-wrap items-center gap-x-6 gap-y-2 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm hover:border-zinc-600"
      >
        <div className="min-w-0 flex-1 basis-full md:basis-56">
          <p className="truncate font-medium text-zinc-100" data-testid="schedule-name">
            {schedule.name}
          </p>
          <RunTime label={t('last_run')} date={schedule.lastRunAt} testId="schedule-last-run" />
        </div>
        <div className="min-w-0">
          <p className="text-sm text-zinc-200">
            <CronWordsText cron={schedule.cron} />
          </p>
          <p
            className="font-mono text-xs text-zinc-400"
            data-testid="schedule-cron"
            aria-label={t('cron_label', { expression: cronExpression(schedule.cron) })}
          >
            {cronExpression(schedule.cron)}
          </p>
        </div>
        <div className="min-w-0">
          <RunTime label={t('next_run')} date={schedule.nextRunAt} testId="schedule-next-run" />
        </div>
        <div className="ml-auto">
          <ScheduleBadge schedule={schedule} />
        </div>
      </Link>
    </li>
  );
}
