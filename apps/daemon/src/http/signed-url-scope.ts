import { cleanServerPath, insideScope, outsideScopeMessage } from '@talon/shared/files/scope';
import type { DaemonConfig } from '../config/config.ts';
import { filesOf, runtimeOwner, type ServerFiles } from '../fs/server-files.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';

/** The claim of a signed URL token this file reads (`file_scope`, see SignedUrlClaims). */
interface ScopeClaim {
  file_scope?: string[] | undefined;
}

/**
 * Folder-scoped signed URLs (our extension): a URL minted for a subuser limited to some folders
 * carries them in `file_scope`. The path it names (the download's `file_path`, the upload's
 * `directory`) must be inside them (403 otherwise), and the jail it works through refuses a
 * symlink that leads out of them, so the check holds for where the bytes really are.
 * A URL without the claim (the owner's, or one from a panel that knows nothing of folders) reaches
 * the whole server as before.
 */
export function signedUrlFiles(s: Server, config: DaemonConfig, claims: ScopeClaim): ServerFiles {
  return filesOf(s, runtimeOwner(config.runtime), claims.file_scope ?? null);
}

/** `userPath` when the claims allow it, else a 403 with the reason. */
export function insideSignedScope(claims: ScopeClaim, userPath: string): string {
  const folders = claims.file_scope;
  if (folders && !insideScope(folders, cleanServerPath(userPath))) {
    throw new ServerError(outsideScopeMessage(folders), 403);
  }
  return userPath;
}
