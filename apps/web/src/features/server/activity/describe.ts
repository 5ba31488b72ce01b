import type { TFunction } from 'i18next';
import type { ActivityEvent } from '../../../api/activity.ts';

/** How many names of a list a sentence spells out before "and N more". */
const NAMED_ITEMS = 3;

/**
 * One value as words: never JSON, whatever shape a property has. Known shapes read as the panel
 * means them (`{from, to}` a rename, `{file, mode}` a permission change); any other object as its
 * values, keyed.
 */
function itemText(item: unknown): string {
  if (item === null || item === undefined) return '';
  if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
  if (Array.isArray(item)) return listText(item);
  if (typeof item === 'object') {
    const { from, to, file, mode } = item as Record<string, unknown>;
    if (typeof from === 'string' && typeof to === 'string') return `${from} → ${to}`;
    if (typeof file === 'string' && (typeof mode === 'string' || typeof mode === 'number'))
      return `${file} (${mode})`;
    return Object.entries(item)
      .map(([key, value]) => `${key} ${itemText(value)}`.trim())
      .join(', ');
  }
  return typeof item === 'bigint' ? item.toString() : ''; // JSON has nothing else
}

function listText(items: readonly unknown[]): string {
  const named = items.slice(0, NAMED_ITEMS).map(itemText).join(', ');
  return items.length > NAMED_ITEMS ? `${named} +${items.length - NAMED_ITEMS}` : named;
}

/**
 * Properties that pick a variant of an event's sentence (an i18next context): a string gives its
 * value (`auth:fail` with `two_factor: "code"` reads `events.auth.fail_code`), `true` the
 * property's name (`interrupted: true` → `…restore-failed_interrupted`). Without a variant
 * sentence the event's own one is used.
 */
const VARIANT_PROPERTIES = ['two_factor', 'interrupted', 'by_administrator'] as const;

function variantOf(properties: Record<string, unknown>): string | undefined {
  for (const key of VARIANT_PROPERTIES) {
    const value = properties[key];
    if (typeof value === 'string' && value) return value;
    if (value === true) return key;
  }
  return undefined;
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
    else values[key] = itemText(value);
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
  const context = variantOf(event.properties);
  return t(eventKey(event.event), { ...values, ...(context ? { context } : {}), defaultValue: event.event });
}
