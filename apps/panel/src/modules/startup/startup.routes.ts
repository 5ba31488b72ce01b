import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { permittedAccess, serverRoute } from '../../http/server-guard.ts';

/**
 * Client API startup routes and the docker image setting (reference §3.3 "Startup", "Settings").
 * Each declares its permission; the guard answers 404, 409 and 403 before the service sees input.
 */
export function startupRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;

  app.get('/api/client/servers/:server/startup', serverRoute('startup.read'), async (req) => {
    const { variables, meta } = await services.startup.show(permittedAccess(req));
    return list('egg_variable', variables, meta);
  });

  const update = serverRoute('startup.update');
  app.put('/api/client/servers/:server/startup/variable', update, async (req) => {
    const { attributes, meta } = await services.startup.updateVariable(
      permittedAccess(req),
      req.body,
      activityActor(req),
    );
    return item('egg_variable', attributes, meta);
  });

  // Our extension (issue 17): choose among the egg's named start-up commands (PLCN_v3).
  app.put('/api/client/servers/:server/startup/command', update, async (req) => {
    const meta = await services.startup.setCommand(permittedAccess(req), req.body, activityActor(req));
    return { object: 'startup_command', attributes: meta };
  });

  const image = serverRoute('startup.docker-image');
  app.put('/api/client/servers/:server/settings/docker-image', image, async (req, reply) => {
    await services.startup.setImage(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
}
