import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { nodeHealth } from '../../daemon-client/node-health.ts';
import { activityActor } from '../../http/context.ts';
import { acl } from '../application/acl.ts';
import { pathId } from '../application/urls.ts';
import { nodeSetupService } from './node-setup.wiring.ts';

type IdParams = { Params: { id: string } };

/**
 * Our extensions to /api/application/nodes (docs/api.md "Nodes"): the daemon's health, and the
 * setup token of the one-line node setup (root admin's session only: a key must not hand out a
 * node's secret to whoever holds the token).
 */
export function applicationNodeExtensionRoutes(app: FastifyInstance, ctx: AppContext) {
  const { nodes } = ctx.services;
  const setup = nodeSetupService(ctx);

  app.get<IdParams>('/api/application/nodes/:id/health', acl('r_nodes'), async (req) => {
    const node = await nodes.get(pathId(req.params.id));
    return {
      object: 'node_health',
      attributes: await nodeHealth(ctx.services.servers.daemonClient, node),
    };
  });

  app.post<IdParams>('/api/application/nodes/:id/setup-token', acl('session'), async (req, reply) => {
    const minted = await setup.mint(pathId(req.params.id), activityActor(req));
    return reply.code(201).send({ object: 'node_setup_token', attributes: minted });
  });
}
