import type { FastifyRequest } from 'fastify';
import { decodeScopeHeader, FILE_SCOPE_HEADER, type FolderScope } from '@talon/shared/files/scope';

/**
 * The folders a panel request is limited to (our extension): a panel forwarding the file request
 * of a folder-scoped subuser names them in FILE_SCOPE_HEADER. The panel checked the names; the
 * jail built with these folders refuses a symlink that leads out of them. Only the node token's
 * holder can send it, and it can only narrow what the request reaches.
 */
export function requestFileScope(req: FastifyRequest): FolderScope {
  return decodeScopeHeader(req.headers[FILE_SCOPE_HEADER]);
}
