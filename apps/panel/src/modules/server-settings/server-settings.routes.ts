import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { resolveUsableServer } from '../servers/server-access.ts';

type ServerRequest = FastifyRequest<{ Params: { server: string } }>;

/** Client API server settings: rename and reinstall (reference §3.3 "Settings"). */
export function serverSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  // 404, then the server's state (409), before the service checks permission and input.
  const access = (req: ServerRequest) =>
    resolveUsableServer(repositories.servers, requireActor(req).user, req.params.server);

  app.post('/api/client/servers/:server/settings/rename', async (req: ServerRequest, reply) => {
    await services.serverSettings.rename(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });

  app.post('/api/client/servers/:server/settings/reinstall', async (req: ServerRequest, reply) => {
    await services.serverSettings.reinstall(await access(req), activityActor(req));
    return reply.code(202).send();
  });
}
