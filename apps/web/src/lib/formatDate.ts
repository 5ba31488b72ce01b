import { format } from 'date-fns';

/** `MMM do, yyyy HH:mm`, e.g. `Jan 5th, 2025 14:03` (spec §2, API keys); null stays null. */
export function formatLastUsed(date: Date | null): string | null {
  return date ? format(date, 'MMM do, yyyy HH:mm') : null;
}
