import { joinPath, normalizeDirectory } from './paths.ts';

/** One `from` → `to` pair of PUT .../files/rename, both from the server root. */
export interface MovePair {
  from: string;
  to: string;
}

/**
 * Whether a typed path climbs above the server root (`/../x`, `plugins/../../x`). The daemon would
 * quietly keep it inside (as Wings does), moving the file somewhere the user did not mean: the
 * dialog refuses it instead.
 */
export function climbsAboveRoot(raw: string): boolean {
  let depth = 0;
  for (const part of raw.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    depth += part === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}

/** A typed path that can only mean a folder: it ends with a slash, or it is the root. */
export function namesFolder(raw: string): boolean {
  const typed = raw.trim().replace(/\\/g, '/');
  return typed.endsWith('/') || normalizeDirectory(typed) === '/';
}

/**
 * The rename pairs of a move from `directory`. One entry may be given its full new path
 * (`/plugins/b.txt`: moved and renamed, as the incumbent's dialog allows); several entries, a path
 * ending in `/`, or an existing folder (`isFolder`) move into that folder under their own names.
 * Entries that would not move are left out.
 */
export function movePairs(names: string[], directory: string, typed: string, isFolder: boolean): MovePair[] {
  const target = normalizeDirectory(typed.trim());
  const intoFolder = names.length !== 1 || isFolder || namesFolder(typed);
  return names
    .map((name) => ({
      from: joinPath(directory, name),
      to: intoFolder ? joinPath(target, name) : target,
    }))
    .filter((pair) => pair.from !== pair.to);
}

/** What the dialog shows as the destination before the user confirms. */
export function movePreview(names: string[], typed: string): string {
  const target = normalizeDirectory(typed.trim());
  if (names.length === 1 && !namesFolder(typed)) return target;
  return target === '/' ? '/' : `${target}/`;
}
