/** The folder servers see as their root; the breadcrumb starts with it (spec 001 §2). */
export const CONTAINER_ROOT = '/home/container';

/**
 * A directory path as the page uses it: absolute, `/`-separated, no `.`/`..` steps and no trailing
 * slash. `..` never climbs above the server root, so a hash such as `#/../../etc` stays inside.
 */
export function normalizeDirectory(raw: string): string {
  const parts: string[] = [];
  for (const part of raw.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The current directory from the URL hash (`#/plugins/config`); bad escapes are read as typed. */
export function directoryFromHash(hash: string): string {
  const raw = hash.replace(/^#/, '');
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  return normalizeDirectory(decoded);
}

/** The hash that opens `directory`; each segment is escaped, the slashes stay readable. */
export function hashFor(directory: string): string {
  return `#${normalizeDirectory(directory).split('/').map(encodeURIComponent).join('/')}`;
}

/** `directory` + `name` as one absolute path. */
export function joinPath(directory: string, name: string): string {
  return normalizeDirectory(`${directory}/${name}`);
}

/** Breadcrumb segments below the root: each with the directory it opens. */
export function breadcrumbs(directory: string): { name: string; path: string }[] {
  const parts = normalizeDirectory(directory).split('/').filter(Boolean);
  return parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }));
}

/** The folder that holds `path`: `/plugins/config.yml` → `/plugins`, `/eula.txt` → `/`. */
export function parentDirectory(path: string): string {
  const parts = normalizeDirectory(path).split('/').filter(Boolean);
  return `/${parts.slice(0, -1).join('/')}`;
}

/** The last part of `path`: `/plugins/config.yml` → `config.yml`; the root gives `''`. */
export function baseName(path: string): string {
  return normalizeDirectory(path).split('/').pop() ?? '';
}
