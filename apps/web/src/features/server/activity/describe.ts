import type { TFunction } from 'i18next';
import type { ActivityEvent } from '../../../api/activity.ts';

/** How many names of a list a sentence spells out before "and N more". */
const NAMED_ITEMS = 3;

function itemText(item: unknown): string {
  if (typeof item === 'string' || typeof item === 'number') return String(item);
  if (item && typeof item === 'object') {
    const { from, to } = item as { from?: unknown; to?: unknown };
    if (typeof from === 'string' && typeof to === 'string') return `${from} → ${to}`;
  }
  return JSON.stringify(item);
}

function listText(items: readonly unknown[]): string {
  const named = items.slice(0, NAMED_ITEMS).map(itemText).join(', ');
  return items.length > NAMED_ITEMS ? `${named} +${items.length - NAMED_ITEMS}` : named;
}

/** `/plugins/` (the panel's form of a directory) reads better as `/plugins`. */
function folderText(directory: string): string {
  return directory.length > 1 ? directory.replace(/\/+$/, '') : directory;
}

/**
 * The values a sentence may use: the event's properties as text (lists summarised, `count` as a
 * number for plurals) and `actor`, the name of whoever did it.
 */
export function sentenceValues(event: ActivityEvent, systemName: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(event.properties)) {
    if (key === 'count' && typeof value === 'number') values.count = value;
    else if (key === 'directory' && typeof value === 'string') values.directory = folderText(value);
    else if (Array.isArray(value)) values[key] = listText(value);
    else if (value === null || value === undefined) values[key] = '';
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values[key] = String(value);
    else values[key] = JSON.stringify(value);
  }
  values.actor = event.actor?.username ?? systemName;
  return values;
}

/** The translation key of an event: `server:file.delete` → `events.server.file.delete`. */
export function eventKey(event: string): string {
  return `events.${event.replace(':', '.')}`;
}

/**
 * One readable line for an event ("alice deleted 3 files in /plugins"), from the `activity`
 * translations; an event without a sentence is shown as its key.
 */
export function describeEvent(event: ActivityEvent, t: TFunction<'activity'>): string {
  const values = sentenceValues(event, t('system'));
  return t(eventKey(event.event), { ...values, defaultValue: event.event });
}
