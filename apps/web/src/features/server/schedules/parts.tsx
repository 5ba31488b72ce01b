import { format } from 'date-fns';
import { useTranslation } from 'react-i18next';
import type { Cron, Schedule } from '../../../api/schedules.ts';
import { cronInWords } from './cronWords.ts';

/** The spec's label (§4): Processing, else Active or Inactive. */
export function ScheduleBadge({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation('schedules');
  const state = schedule.isProcessing ? 'processing' : schedule.isActive ? 'active' : 'inactive';
  const colour = {
    processing: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
    active: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40',
    inactive: 'bg-zinc-700/40 text-zinc-300 ring-zinc-500/40',
  }[state];
  return (
    <span
      data-testid="schedule-badge"
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ${colour}`}
    >
      {t(`badge.${state}`)}
    </span>
  );
}

/** "Every 5 minutes", or nothing for shapes without words (the fields beside it say it all). */
export function CronWordsText({ cron, className = '' }: { cron: Cron; className?: string }) {
  const { t } = useTranslation('schedules');
  const words = cronInWords(cron);
  if (!words) return null;
  const values =
    words.key === 'cron.weekly' ? { ...words.values, day: t(`weekdays.${words.values.day}`) } : words.values;
  return (
    <span data-testid="schedule-cron-words" className={className}>
      {t(words.key, values)}
    </span>
  );
}

/** The five fields in cron order, as one expression. */
export const cronExpression = (cron: Cron) =>
  [cron.minute, cron.hour, cron.dayOfMonth, cron.month, cron.dayOfWeek].join(' ');

/** A run time, e.g. `Nov 25th at 7:05PM`; with the year when it is not this year. */
export function formatRun(date: Date | null, now = new Date()): string | null {
  if (!date) return null;
  return format(
    date,
    date.getFullYear() === now.getFullYear() ? "MMM do 'at' h:mma" : "MMM do, yyyy 'at' h:mma",
  );
}

/** "Last run at" / "Next run at" with its time or n/a. */
export function RunTime({ label, date, testId }: { label: string; date: Date | null; testId: string }) {
  const { t } = useTranslation('schedules');
  return (
    <p className="text-xs text-zinc-400">
      {label}:{' '}
      <time data-testid={testId} dateTime={date?.toISOString()} className="font-medium text-zinc-200">
        {formatRun(date) ?? t('never')}
      </time>
    </p>
  );
}
