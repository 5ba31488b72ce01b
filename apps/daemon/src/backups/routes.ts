import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { backupRequestSchema } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { isUuid } from '../fs/paths.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { Server } from '../servers/server.ts';
import { deleteBackup, runBackup } from './backup-service.ts';

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
}
