import type { FastifyRequest } from 'fastify';
import type { Node } from '../db/types.ts';
import { errors, HttpError } from '../http/errors.ts';
import { safeEqual } from '../lib/crypto.ts';
import type { DaemonClient } from '../daemon-client/daemon-client.ts';
import type { ServersRepository } from '../modules/servers/servers.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the daemon calling /api/remote */
    node: Node | null;
  }
}

/** `Authorization: Bearer <token id>.<token>` of a daemon (Wings protocol §1.2). */
export function nodeAuthentication(repo: ServersRepository, daemon: DaemonClient) {
  return async (req: FastifyRequest) => {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) throw errors.unauthenticated();
    const [tokenId, token, ...rest] = header.slice(7).trim().split('.');
    if (!tokenId || !token || rest.length > 0) {
      throw new HttpError(
        400,
        'BadRequestHttpException',
        'The Authorization header provided was not in a valid format.',
      );
    }
    const node = await repo.findNodeByTokenId(tokenId);
    if (!node || !safeEqual(daemon.token(node), token)) {
      throw errors.forbidden('You are not authorized to access this resource.');
    }
    req.node = node;
  };
}

export function requireNode(req: FastifyRequest): Node {
  if (!req.node) throw new Error('remote route reached without a node');
  return req.node;
}
