import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { backupRequestSchema, restoreRequestSchema } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { isUuid } from '../fs/paths.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { Server } from '../servers/server.ts';
import { backupFile, deleteBackup, removeStaleParts, runBackup } from './backup-service.ts';
import { Jail } from '../fs/jail.ts';
import { RestoreRefused, checkArchive, openArchive, type ArchivePlan } from './restore.ts';
import { runRestore } from './restore-service.ts';

export const BACKUP_NOT_FOUND = 'The requested backup was not found on this server.';
const INVALID = 'The data provided in the request could not be validated.';

/**
 * `POST /api/servers/:server/backup` and `DELETE /api/servers/:server/backup/:backup` (protocol
 * §2.4). Only the `wings` adapter (local archives) exists here; `s3` is refused with a 400.
 */
export function registerBackupRoutes(
  app: FastifyInstance,
  deps: { config: DaemonConfig; remote: RemoteClient; log: Logger },
  withServer: (req: FastifyRequest, reply: FastifyReply) => Server | null,
): void {
  // Registered once at boot, before any backup can start.
  void removeStaleParts(deps.config).then((n) => {
    if (n > 0) deps.log.info({ count: n }, 'removed unfinished backup archives');
  });

  app.post('/api/servers/:server/backup', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = backupRequestSchema.safeParse(req.body ?? {});
    if (!body.success || !isUuid(body.data.uuid)) return reply.code(422).send({ error: INVALID });
    if (body.data.adapter !== 'wings') {
      return reply.code(400).send({ error: 'Only the wings backup adapter is supported by this node.' });
    }
    void runBackup(s, body.data.uuid, body.data.ignore, deps).catch((err: unknown) =>
      deps.log.error({ err }, 'backup'),
    );
    return reply.code(202).send();
  });

  app.delete('/api/servers/:server/backup/:backup', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const { backup } = req.params as { backup: string };
    if (!(await deleteBackup(deps.config, backup))) return reply.code(404).send({ error: BACKUP_NOT_FOUND });
    return reply.code(204).send();
  });

  registerRestoreRoute(app, deps, withServer);
}

/**
 * `POST /api/servers/:server/backup/:backup/restore` (protocol §2.4, §8.10). Unlike Wings, the
 * archive is found, opened and read through once (every entry checked) before the answer, and
 * nothing is deleted before that: a missing or bad archive leaves the server as it was.
 */
function registerRestoreRoute(
  app: FastifyInstance,
  deps: { config: DaemonConfig; remote: RemoteClient; log: Logger },
  withServer: (req: FastifyRequest, reply: FastifyReply) => Server | null,
): void {
  app.post('/api/servers/:server/backup/:backup/restore', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const { backup } = req.params as { backup: string };
    const body = restoreRequestSchema.safeParse(req.body ?? {});
    if (!body.success) return reply.code(422).send({ error: INVALID });
    if (body.data.adapter === 's3') {
      if (!body.data.download_url) {
        return reply
          .code(400)
          .send({ error: 'The download_url field is required when the backup adapter is set to S3.' });
      }
      return reply.code(400).send({ error: 'Only the wings backup adapter is supported by this node.' });
    }
    if (s.restoring) return reply.code(409).send({ error: 'A backup is already being restored.' });
    const file = backupFile(deps.config, backup);
    const handle = file ? await openArchive(file) : null;
    if (!handle) return reply.code(404).send({ error: BACKUP_NOT_FOUND });
    s.restoring = true;
    let plan: ArchivePlan;
    try {
      // Without truncation, the files the archive replaces free their bytes: their sizes are
      // looked up (through the jail, never following a link) only when a disk limit applies.
      const jail = new Jail(s.dir);
      const limited = s.config.settings.build.disk_space > 0 && !body.data.truncate_directory;
      plan = await checkArchive(
        handle,
        limited
          ? async (name) => {
              const st = await jail.lstat(name).catch(() => null);
              return st?.isFile() ? st.size : 0;
            }
          : undefined,
      );
    } catch (err) {
      s.restoring = false;
      await handle.close();
      if (err instanceof RestoreRefused) return reply.code(400).send({ error: err.message });
      throw err;
    }
    void runRestore(s, backup, handle, plan, body.data.truncate_directory, deps);
    return reply.code(202).send();
  });
}
