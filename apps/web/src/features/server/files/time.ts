import { format, formatDistance } from 'date-fns';

/** After this a modified time is shown as a date instead of "… ago" (spec 001 §2, §9). */
export const RELATIVE_TIME_LIMIT_MS = 48 * 60 * 60 * 1000;

/** `3 minutes ago` within 48 hours, else `MMM do, yyyy h:mma` (`Jan 5th, 2025 2:03PM`). */
export function formatModified(date: Date, now: Date = new Date()): string {
  if (now.getTime() - date.getTime() > RELATIVE_TIME_LIMIT_MS) return format(date, 'MMM do, yyyy h:mma');
  return formatDistance(date, now, { addSuffix: true });
}
