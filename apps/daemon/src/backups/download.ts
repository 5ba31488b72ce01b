import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import type { SignedUrlClaims } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { backupFile } from './backup-service.ts';
import { BACKUP_NOT_FOUND } from './routes.ts';
import { backupOwner } from './owner.ts';
import { scopedArchive } from './scoped-archive.ts';

/**
 * Answer `GET /download/backup` (protocol §4.2) once the token was checked: the archive named by
 * `backup_uuid`, if it is the token's server's, with its size. Only a finished archive is served
 * (the `.part` never is). A folder-scoped user's URL (`file_scope`) gets the archive cut down to
 * their folders, made as it streams (so without a length).
 */
export async function sendBackup(reply: FastifyReply, config: DaemonConfig, claims: SignedUrlClaims) {
  // Another server's backup is not found, as if it did not exist (backups/owner.ts).
  const owner = await backupOwner(config, claims.backup_uuid ?? '');
  if (owner !== undefined && owner !== claims.server_uuid) {
    return reply.code(404).send({ error: BACKUP_NOT_FOUND });
  }
  const file = backupFile(config, claims.backup_uuid ?? '');
  const handle = file ? await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null) : null;
  const st = handle ? await handle.stat() : null;
  if (!handle || !st?.isFile()) {
    await handle?.close();
    return reply.code(404).send({ error: BACKUP_NOT_FOUND });
  }
  void reply
    .header('Content-Disposition', `attachment; filename="${claims.backup_uuid}.tar.gz"`)
    .type('application/octet-stream');
  const whole = handle.createReadStream({ start: 0, end: Math.max(0, st.size - 1) });
  if (claims.file_scope !== undefined) return reply.send(scopedArchive(whole, claims.file_scope));
  return reply.header('Content-Length', String(st.size)).send(whole);
}
