import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { nodeHealth } from '../../daemon-client/node-health.ts';
import { isEmbeddedNode } from '../../embedded/embedded-node.ts';
import { errors } from '../../http/errors.ts';
import { activityActor } from '../../http/context.ts';
import { acl } from '../application/acl.ts';
import { pathId } from '../application/urls.ts';
import { nodeSetupService } from './node-setup.wiring.ts';

type IdParams = { Params: { id: string } };

export const EMBEDDED_NODE_HAS_NO_SETUP =
  "The panel configures and starts this node's daemon itself: it needs no setup command.";

/**
 * Our extensions to /api/application/nodes (docs/api.md "Nodes"): the daemon's health, whether the
 * node is the panel's own embedded one (which needs no setup), and the setup token of the one-line node setup (root admin's session only: a key must not hand out a
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

  app.get<IdParams>('/api/application/nodes/:id/setup', acl('r_nodes'), async (req) => {
    const node = await nodes.get(pathId(req.params.id));
    return { object: 'node_setup', attributes: { embedded: await isEmbeddedNode(ctx, node.id) } };
  });

  app.post<IdParams>('/api/application/nodes/:id/setup-token', acl('session'), async (req, reply) => {
    const node = await nodes.get(pathId(req.params.id));
    // A second daemon set up with this node's secret would fight the one the panel starts.
    if (await isEmbeddedNode(ctx, node.id)) throw errors.display(EMBEDDED_NODE_HAS_NO_SETUP);
    const minted = await setup.mint(node.id, activityActor(req));
    return reply.code(201).send({ object: 'node_setup_token', attributes: minted });
  });
}
