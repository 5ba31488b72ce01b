import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { resolveUsableServer } from '../servers/server-access.ts';

type ServerRequest = FastifyRequest<{ Params: { server: string } }>;
type AllocationRequest = FastifyRequest<{ Params: { server: string; allocation: string } }>;

const BASE = '/api/client/servers/:server/network/allocations';

/** Client API network allocations (reference §3.3 "Network allocations"). */
export function networkRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  // 404, then the server's state (409); the service looks up {allocation} (404) before it checks
  // the permission (403) and the input (422).
  const access = (req: ServerRequest) =>
    resolveUsableServer(repositories.servers, requireActor(req).user, req.params.server);

  app.get(BASE, async (req: ServerRequest) => {
    return list('allocation', await services.network.list(await access(req)));
  });

  app.post(BASE, async (req: ServerRequest) => {
    return item('allocation', await services.network.create(await access(req), activityActor(req)));
  });

  app.post(`${BASE}/:allocation`, async (req: AllocationRequest) => {
    const attributes = await services.network.setNotes(
      await access(req),
      req.params.allocation,
      req.body,
      activityActor(req),
    );
    return item('allocation', attributes);
  });

  app.post(`${BASE}/:allocation/primary`, async (req: AllocationRequest) => {
    const attributes = await services.network.setPrimary(
      await access(req),
      req.params.allocation,
      activityActor(req),
    );
    return item('allocation', attributes);
  });

  app.delete(`${BASE}/:allocation`, async (req: AllocationRequest, reply) => {
    await services.network.delete(await access(req), req.params.allocation, activityActor(req));
    return reply.code(204).send();
  });
}
