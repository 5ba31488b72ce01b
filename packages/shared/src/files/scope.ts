/**
 * Folder-scoped file access (our extension): a subuser whose `file_paths` lists folders may use
 * files only inside them. The panel, the signed URLs and SFTP all decide with these functions, on
 * paths cleaned the way the daemon's jail cleans them, so the three agree on every path.
 *
 * `folders` are normalised absolute folder paths (`/plugins`, `/world/region`; see
 * `isNormalisedFolderPath`); `null` means no limit at all.
 */
export type FolderScope = readonly string[] | null;

/**
 * A user path as a clean absolute path below the server root: backslashes are kept as name
 * characters (as the daemon does), empty and `.` parts dropped, `..` resolved lexically, never
 * above `/`. `a/../b`, `/a//b/`, `./b` become `/b`, `/a/b`, `/b`.
 */
export function cleanServerPath(userPath: string): string {
  const out: string[] = [];
  for (const part of userPath.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** `name` inside the directory `root`, cleaned (how the file routes combine their two fields). */
export function pathUnder(root: string, name: string): string {
  return cleanServerPath(`${root}/${name}`);
}

/** Whether the cleaned path `clean` is one of the folders or below one of them. */
export function insideScope(folders: FolderScope, clean: string): boolean {
  if (folders === null) return true;
  return folders.some((f) => f === '/' || clean === f || clean.startsWith(`${f}/`));
}

/**
 * Whether the cleaned path `clean` is a directory above an allowed folder (`/` or `/world` for
 * `/world/region`): such a directory may be looked at, showing only the way to the folders.
 */
export function leadsIntoScope(folders: FolderScope, clean: string): boolean {
  if (folders === null) return false;
  const prefix = clean === '/' ? '/' : `${clean}/`;
  return folders.some((f) => f !== clean && f.startsWith(prefix));
}

/**
 * The names a listing of `clean` may show: every name when `clean` is inside the scope, only the
 * next part of each allowed folder below it when it is above them (`plugins` for `/` and
 * `/plugins`), nothing otherwise.
 */
export function visibleNames(folders: FolderScope, clean: string): ((name: string) => boolean) | null {
  if (insideScope(folders, clean)) return () => true;
  if (!leadsIntoScope(folders, clean)) return null;
  const prefix = clean === '/' ? '/' : `${clean}/`;
  const next = new Set(
    folders!.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]!),
  );
  return (name) => next.has(name);
}

/** The folders of a stored `file_paths` value (JSON text or null); anything unreadable limits to nothing. */
export function parseFolderScope(stored: string | null | undefined): FolderScope {
  if (stored === null || stored === undefined) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (value === null) return null;
    if (Array.isArray(value))
      return value.filter((v): v is string => typeof v === 'string').map(cleanServerPath);
  } catch {
    // fall through: refuse everything rather than grant the whole server
  }
  return [];
}

/** The refusal of a path outside the folders (the panel's 403 detail, the daemon's 403 error). */
export function outsideScopeMessage(folders: readonly string[]): string {
  return folders.length === 0
    ? 'Your access to the files of this server does not include any folder.'
    : `Your access to the files of this server is limited to ${folders.join(', ')}.`;
}

/**
 * The request header by which the panel tells a daemon the folders of a file request it forwards
 * for a folder-scoped subuser (our extension; Wings ignores it). The daemon's jail then refuses
 * symlinks that lead out of them; the panel has checked the names already.
 */
export const FILE_SCOPE_HEADER = 'x-talon-file-scope';

/** The header's value: the folders as URI-encoded JSON (header values are ASCII). */
export function encodeScopeHeader(folders: readonly string[]): string {
  return encodeURIComponent(JSON.stringify(folders));
}

/** The folders of a received header: absent is no limit; anything unreadable limits to nothing. */
export function decodeScopeHeader(value: string | string[] | undefined): FolderScope {
  if (value === undefined) return null;
  try {
    return parseFolderScope(decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : value)) ?? [];
  } catch {
    return [];
  }
}
