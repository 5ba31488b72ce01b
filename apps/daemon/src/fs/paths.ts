import path from 'node:path';
import { FileError } from './errors.ts';

/**
 * The lexical step of the jail (no filesystem access): a user path becomes the list of components
 * of a path below `root`. An absolute path is relative to the root; a path that starts with the
 * root's own absolute path has that prefix removed first; `..` is resolved; a result above the
 * root is refused. `[]` is the root itself.
 */
export function cleanPath(root: string, userPath: string): string[] {
  if (userPath.includes('\0')) throw new FileError('not_found', 'NUL byte in path');
  const base = path.posix.resolve(root);
  let p = userPath;
  if (p === base || p.startsWith(base + '/')) p = p.slice(base.length);
  // Leading slashes are dropped: the path is always relative to the root.
  const joined = path.posix.join(base, p.replace(/^\/+/, ''));
  if (joined !== base && !joined.startsWith(base + '/')) {
    throw new FileError('outside_root', `${userPath} resolves outside the server root`);
  }
  return joined
    .slice(base.length)
    .split('/')
    .filter((c) => c !== '' && c !== '.');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Whether `s` is a server uuid (v4, as the panel makes them): only such a value may become a path. */
export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** `s` when it is a server uuid, else an error: a uuid from the panel or a route never names `..` or `/`. */
export function assertUuid(s: string): string {
  if (!isUuid(s)) throw new Error(`not a server uuid: ${JSON.stringify(s).slice(0, 80)}`);
  return s;
}
