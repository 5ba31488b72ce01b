import { format } from 'date-fns';
import { formatBytesShort, megabytesToBytes } from '@talon/shared/format/bytes';
import { parseWireDate } from '../../lib/dates.ts';

/** `Jan 5, 2025`; '—' when missing. */
export function formatDay(value: string | null | undefined): string {
  const date = parseWireDate(value);
  return date ? format(date, 'MMM d, yyyy') : '—';
}

/** `Jan 5, 2025 14:03`; null when missing (the caller says "never"). */
export function formatMoment(value: string | null | undefined): string | null {
  const date = parseWireDate(value);
  return date ? format(date, 'MMM d, yyyy HH:mm') : null;
}

/** A MiB amount as the API stores limits → `1.5 GB`; 0 means unlimited for server limits. */
export function formatMib(mib: number): string {
  return formatBytesShort(megabytesToBytes(mib));
}
