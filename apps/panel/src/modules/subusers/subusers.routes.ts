import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { nestedResource, permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { subuserAttributes } from './subusers.presenter.ts';

/**
 * Client API subuser routes (reference §3.3 "Subusers"). Each declares its `user.*` permission;
 * `{user}` (the subuser's user uuid) is found through the server by the guard, so another server's
 * subuser is a 404 before any permission is looked at.
 */
export function subuserRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;
  const prefix = '/api/client/servers/:server/users';
  const subuser = nestedResource((access, params) =>
    services.subusers.find(access.server, params.user ?? ''),
  );

  app.get(prefix, serverRoute('user.read'), async (req) =>
    list('server_subuser', (await services.subusers.list(permittedAccess(req))).map(subuserAttributes)),
  );

  app.post(prefix, serverRoute('user.create'), async (req) =>
    item(
      'server_subuser',
      subuserAttributes(await services.subusers.create(permittedAccess(req), req.body, activityActor(req))),
    ),
  );

  app.get(`${prefix}/:user`, serverRoute('user.read', { nested: subuser }), async (req) => {
    const target = subuser.of(req);
    services.subusers.refuseSelf(permittedAccess(req), target);
    return item('server_subuser', subuserAttributes(target));
  });

  app.post(`${prefix}/:user`, serverRoute('user.update', { nested: subuser }), async (req) => {
    const updated = await services.subusers.update(
      permittedAccess(req),
      subuser.of(req),
      req.body,
      activityActor(req),
    );
    return item('server_subuser', subuserAttributes(updated));
  });

  app.delete(`${prefix}/:user`, serverRoute('user.delete', { nested: subuser }), async (req, reply) => {
    await services.subusers.delete(permittedAccess(req), subuser.of(req), activityActor(req));
    return reply.code(204).send();
  });
}
