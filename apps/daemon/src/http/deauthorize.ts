import type { FastifyInstance } from 'fastify';
import { deauthorizeUserSchema } from '@talon/shared';
import type { Logger } from 'pino';
import type { SftpServer } from '../sftp/server.ts';
import type { Denylist } from '../ws/denylist.ts';
import type { OpenSockets } from '../ws/open-sockets.ts';

/** Where a user's open sessions live: console sockets and SFTP connections. */
export interface UserSessions {
  sockets: OpenSockets;
  sftp: Pick<SftpServer, 'endUserSessions'>;
}

/**
 * `POST /api/deauthorize-user` (node token; protocol §9.2b, GHSA-hr7j-63v7-vj7g): the panel withdrew
 * a user's access to some servers of this node (all of them when `servers` is absent). Their tokens
 * issued until now are refused from here on (websocket and signed URLs: the denylist), and their open
 * console sockets and SFTP sessions on those servers end. Servers this node does not know are fine:
 * there is simply nothing of them to end.
 */
export function registerDeauthorizeRoute(
  app: FastifyInstance,
  deps: { denylist: Denylist; sessions: UserSessions; log: Logger },
): void {
  app.post('/api/deauthorize-user', async (req, reply) => {
    const body = deauthorizeUserSchema.safeParse(req.body);
    if (!body.success) {
      return reply.code(422).send({ error: 'The data provided in the request could not be validated.' });
    }
    const { user, servers } = body.data;
    // Denied first: a socket or session that races the closing cannot authenticate again with an old token.
    deps.denylist.denyUser(user, servers);
    const sockets = deps.sessions.sockets.deauthorize(user, servers);
    const sftp = deps.sessions.sftp.endUserSessions(user, servers);
    deps.log.info({ user, servers: servers ?? 'all', sockets, sftp }, 'user deauthorized');
    return reply.code(204).send();
  });
}
