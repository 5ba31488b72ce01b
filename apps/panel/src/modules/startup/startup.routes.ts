import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { resolveUsableServer } from '../servers/server-access.ts';

type ServerRequest = FastifyRequest<{ Params: { server: string } }>;

/** Client API startup routes and the docker image setting (reference §3.3 "Startup", "Settings"). */
export function startupRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  // 404, then the server's state (409), before the service checks permission and input.
  const access = (req: ServerRequest) =>
    resolveUsableServer(repositories.servers, requireActor(req).user, req.params.server);

  app.get('/api/client/servers/:server/startup', async (req: ServerRequest) => {
    const { variables, meta } = await services.startup.show(await access(req));
    return list('egg_variable', variables, meta);
  });

  app.put('/api/client/servers/:server/startup/variable', async (req: ServerRequest) => {
    const { attributes, meta } = await services.startup.updateVariable(
      await access(req),
      req.body,
      activityActor(req),
    );
    return item('egg_variable', attributes, meta);
  });

  app.put('/api/client/servers/:server/settings/docker-image', async (req: ServerRequest, reply) => {
    await services.startup.setImage(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
}
