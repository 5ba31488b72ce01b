import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { permittedAccess, serverRoute } from '../../http/server-guard.ts';

/**
 * Client API server settings: rename and reinstall (reference §3.3 "Settings"). Each declares its
 * permission; the guard answers 404, 409 and 403 before the service sees the input.
 */
export function serverSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;

  const rename = serverRoute('settings.rename');
  app.post('/api/client/servers/:server/settings/rename', rename, async (req, reply) => {
    await services.serverSettings.rename(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });

  const reinstall = serverRoute('settings.reinstall');
  app.post('/api/client/servers/:server/settings/reinstall', reinstall, async (req, reply) => {
    await services.serverSettings.reinstall(permittedAccess(req), activityActor(req));
    return reply.code(202).send();
  });
}
