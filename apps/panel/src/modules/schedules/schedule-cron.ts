import { Cron } from 'croner';
import type { ScheduleCron } from '@talon/shared';
import type { Schedule } from '../../db/types.ts';

/** The five fields of a stored schedule. */
export function cronOf(s: Schedule): ScheduleCron {
  return {
    minute: s.cron_minute,
    hour: s.cron_hour,
    day_of_month: s.cron_day_of_month,
    month: s.cron_month,
    day_of_week: s.cron_day_of_week,
  };
}

/**
 * The first time strictly after `after` at which the five cron fields match, in `timezone` (the
 * panel's APP_TIMEZONE); null when they are not a valid five-field expression or never match (e.g.
 * 31 February). Each field must be one token: a space would shift the fields (or add croner's
 * seconds field).
 */
export function nextRunAt(cron: ScheduleCron, timezone: string, after: Date = new Date()): Date | null {
  const fields = [cron.minute, cron.hour, cron.day_of_month, cron.month, cron.day_of_week];
  if (fields.some((f) => f === '' || /\s/u.test(f))) return null;
  try {
    // Not started (no callback): croner only computes times.
    const pattern = new Cron(fields.join(' '), { timezone });
    return pattern.nextRun(after);
  } catch {
    return null;
  }
}
