import type { Cron } from '../../../api/schedules.ts';

/**
 * A schedule's cron in words ("Every 5 minutes") for the common shapes, as an i18n key of
 * `schedules:cron.*` with its values; null for anything else, where the five fields speak alone.
 * No cron-describing package is in the tree, and the shapes owners use are few: every N minutes,
 * hourly at a minute, every N hours, daily, weekly on one day, monthly on one day.
 */
export interface CronWords {
  key: string;
  values: Record<string, string | number>;
}

const NUMBER = /^\d+$/;
const STEP = /^\*\/(\d+)$/;
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A plain minute (0–59) or hour (0–23) field, else null. */
function fixed(field: string, max: number): number | null {
  if (!NUMBER.test(field)) return null;
  const value = Number(field);
  return value <= max ? value : null;
}

// `*/N` with 1 ≤ N, else null (`*/1` is every one).
function step(field: string): number | null {
  const match = STEP.exec(field);
  if (!match) return null;
  const value = Number(match[1]);
  return value >= 1 ? value : null;
}

/** 0–7 (7 is Sunday too) or a three-letter day name, as 0–6; else null. */
function weekday(field: string): number | null {
  if (NUMBER.test(field)) {
    const value = Number(field);
    return value <= 7 ? value % 7 : null;
  }
  const index = DAY_NAMES.indexOf(field.toLowerCase());
  return index === -1 ? null : index;
}

const pad = (value: number) => String(value).padStart(2, '0');

export function cronInWords(cron: Cron): CronWords | null {
  const minute = cron.minute.trim();
  const hour = cron.hour.trim();
  const dayOfMonth = cron.dayOfMonth.trim();
  const month = cron.month.trim();
  const dayOfWeek = cron.dayOfWeek.trim();
  // Every shape below runs in every month.
  if (month !== '*') return null;
  const everyDay = dayOfMonth === '*' && dayOfWeek === '*';

  if (everyDay && hour === '*') {
    if (minute === '*') return { key: 'cron.every_minute', values: {} };
    const minutes = step(minute);
    if (minutes !== null) {
      return minutes === 1
        ? { key: 'cron.every_minute', values: {} }
        : { key: 'cron.every_n_minutes', values: { count: minutes } };
    }
    const at = fixed(minute, 59);
    if (at === 0) return { key: 'cron.every_hour', values: {} };
    if (at !== null) return { key: 'cron.every_hour_at', values: { minute: at } };
    return null;
  }

  const at = fixed(minute, 59);
  if (at === null) return null;
  const hours = step(hour);
  if (everyDay && hours !== null) {
    return hours === 1
      ? at === 0
        ? { key: 'cron.every_hour', values: {} }
        : { key: 'cron.every_hour_at', values: { minute: at } }
      : { key: 'cron.every_n_hours', values: { count: hours, minute: pad(at) } };
  }

  const atHour = fixed(hour, 23);
  if (atHour === null) return null;
  const time = `${pad(atHour)}:${pad(at)}`;
  if (everyDay) return { key: 'cron.daily', values: { time } };
  if (dayOfMonth === '*') {
    const day = weekday(dayOfWeek);
    return day === null ? null : { key: 'cron.weekly', values: { day, time } };
  }
  if (dayOfWeek === '*') {
    const day = fixed(dayOfMonth, 31);
    return day === null || day === 0 ? null : { key: 'cron.monthly', values: { day, time } };
  }
  return null;
}
