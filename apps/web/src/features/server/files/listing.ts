import type { FileEntry } from '../../../api/files.ts';

/** At most this many entries are shown (spec 001 §9). */
export const FILE_LIST_LIMIT = 250;
/** The bulk delete confirmation names this many files, then counts the rest. */
export const DELETE_PREVIEW_COUNT = 15;

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Folders first, then names in order (natural: `file2` before `file10`; ties by exact name). */
export function compareEntries(a: FileEntry, b: FileEntry): number {
  if (a.isFile !== b.isFile) return a.isFile ? 1 : -1;
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The sorted entries to show, cut at the limit; `truncated` says some were left out. */
export function visibleEntries(
  entries: readonly FileEntry[],
  limit = FILE_LIST_LIMIT,
): { entries: FileEntry[]; truncated: boolean } {
  const sorted = [...entries].sort(compareEntries);
  return { entries: sorted.slice(0, limit), truncated: sorted.length > limit };
}

/** The names a delete confirmation lists and how many more it only counts. */
export function deletePreview(
  names: readonly string[],
  shown = DELETE_PREVIEW_COUNT,
): { names: string[]; others: number } {
  return { names: names.slice(0, shown), others: Math.max(0, names.length - shown) };
}
