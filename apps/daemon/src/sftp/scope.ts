import path from 'node:path';
import { cleanServerPath, insideScope, visibleNames, type FolderScope } from '@talon/shared/files/scope';
import { sftpClean } from './listing.ts';
import { denied } from './status.ts';

/**
 * The folders an SFTP session may use (our `file_paths` extension; null = the whole server). This
 * checks the paths a client names; the session's jail (built with the same folders) checks where
 * symlinks on the way really lead, so a link inside a folder that points out of it is refused too.
 * Every refusal is SSH_FX_PERMISSION_DENIED.
 */
export class SessionScope {
  constructor(private readonly folders: FolderScope) {}

  /** Refuse a path outside the folders (open, write, remove, rename, mkdir, setstat, readlink). */
  requireInside(p: string): void {
    if (!insideScope(this.folders, sftpClean(p))) throw denied();
  }

  /**
   * Which entries of the directory `p` a listing shows: all of them inside the folders, only the
   * way to the folders in a directory above them (`/` shows `plugins`); refused anywhere else.
   * Without a name it answers for the directory itself (stat of `/` is allowed, of `/world` not).
   */
  visible(p: string): (name: string) => boolean {
    const filter = visibleNames(this.folders, sftpClean(p));
    if (!filter) throw denied();
    return filter;
  }

  /**
   * Refuse a symlink at `linkPath` whose target leads outside the folders: an absolute target
   * (the server sees its own root there, never the folder), or a relative one resolved from the
   * link's directory.
   */
  requireLinkInside(linkPath: string, target: string): void {
    this.requireInside(linkPath);
    if (this.folders === null) return;
    if (target.startsWith('/')) throw denied();
    const resolved = cleanServerPath(`${path.posix.dirname(sftpClean(linkPath))}/${target}`);
    if (!insideScope(this.folders, resolved)) throw denied();
  }
}
