import {
  cleanServerPath,
  insideScope,
  outsideScopeMessage,
  pathUnder,
  visibleNames,
  type FolderScope,
} from '@talon/shared/files/scope';
import { errors } from '../../http/errors.ts';
import type { ServerAccess } from '../servers/server-access.ts';

/**
 * Folder-scoped file access (our extension, docs/security.md): a subuser with `file_paths` may use
 * files only inside those folders. Paths are cleaned the way the daemon cleans them (`..` resolved
 * against `/`) before they are compared, so `/plugins/../server.properties` is outside `/plugins`.
 * The owner, root admins and subusers without folders have no scope: every check passes.
 */
export function fileScope(access: ServerAccess): FolderScope {
  return access.fileScope ?? null;
}

/** Whether `path` is inside the caller's folders (always, without folders). */
export function isInside(access: ServerAccess, path: string): boolean {
  return insideScope(fileScope(access), cleanServerPath(path));
}

/** 403 unless every path is inside the caller's folders (nothing is asked of the daemon before). */
export function requireInside(access: ServerAccess, ...paths: string[]): void {
  const folders = fileScope(access);
  if (folders === null) return;
  for (const p of paths) {
    if (!insideScope(folders, cleanServerPath(p))) throw errors.forbidden(outsideScopeMessage(folders));
  }
}

/** As {@link requireInside} for names given relative to a `root` directory (how most routes send them). */
export function requireInsideUnder(access: ServerAccess, root: string, ...names: string[]): void {
  requireInside(access, ...names.map((n) => pathUnder(root, n)));
}

/**
 * Which entries a listing of `directory` may show: all of them inside the folders, only the way to
 * the folders above them (listing `/` shows `plugins` and nothing else), 403 anywhere else.
 */
export function listingFilter(access: ServerAccess, directory: string): (name: string) => boolean {
  const folders = fileScope(access);
  const filter = visibleNames(folders, cleanServerPath(directory));
  if (!filter) throw errors.forbidden(outsideScopeMessage(folders ?? []));
  return filter;
}

/** The claim the signed URLs carry for a scoped caller (the daemon keeps the URL inside), else nothing. */
export function scopeClaim(access: ServerAccess): { file_scope?: string[] } {
  const folders = fileScope(access);
  return folders === null ? {} : { file_scope: [...folders] };
}
