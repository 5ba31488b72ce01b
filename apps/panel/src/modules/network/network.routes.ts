import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { nestedResource, permittedAccess, serverRoute } from '../../http/server-guard.ts';

const BASE = '/api/client/servers/:server/network/allocations';

/**
 * Client API network allocations (reference §3.3 "Network allocations"). The guard answers 404,
 * then 409, then looks `{allocation}` up through the server (404) before the permission (403).
 */
export function networkRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;
  const allocation = nestedResource((access, params) =>
    services.network.find(access, params.allocation ?? ''),
  );

  app.get(BASE, serverRoute('allocation.read'), async (req) => {
    return list('allocation', await services.network.list(permittedAccess(req)));
  });

  app.post(BASE, serverRoute('allocation.create'), async (req) => {
    return item('allocation', await services.network.create(permittedAccess(req), activityActor(req)));
  });

  const update = serverRoute('allocation.update', { nested: allocation });
  app.post(`${BASE}/:allocation`, update, async (req) => {
    const attributes = await services.network.setNotes(
      permittedAccess(req),
      allocation.of(req),
      req.body,
      activityActor(req),
    );
    return item('allocation', attributes);
  });

  app.post(`${BASE}/:allocation/primary`, update, async (req) => {
    const attributes = await services.network.setPrimary(
      permittedAccess(req),
      allocation.of(req),
      activityActor(req),
    );
    return item('allocation', attributes);
  });

  const remove = serverRoute('allocation.delete', { nested: allocation });
  app.delete(`${BASE}/:allocation`, remove, async (req, reply) => {
    await services.network.delete(permittedAccess(req), allocation.of(req), activityActor(req));
    return reply.code(204).send();
  });
}
