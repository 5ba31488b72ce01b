import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonConfig } from '../config/config.ts';
import { readInstallLog } from '../servers/install-log.ts';
import type { Server } from '../servers/server.ts';

/** The daemon's answer when a server has no install log on this node. */
export const NO_INSTALL_LOG = 'No installation log exists for this server on this node.';

/**
 * `GET /api/servers/:server/install-logs` (our extension, docs/api.md): the last install's log of
 * one server, `{"data": "<text>"}`, as the daemon wrote it (header, then at most the output's
 * last MiB). Node token only, like every /api route; the panel shows it to root admins.
 */
export function registerInstallLogRoute(
  app: FastifyInstance,
  config: DaemonConfig,
  withServer: (req: FastifyRequest, reply: FastifyReply) => Server | null,
): void {
  app.get('/api/servers/:server/install-logs', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const text = await readInstallLog(config, s.uuid);
    if (text === null) return reply.code(404).send({ error: NO_INSTALL_LOG });
    return { data: text };
  });
}
