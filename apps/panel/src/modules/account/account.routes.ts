import type { FastifyInstance } from 'fastify';
import { PERMISSION_CATALOGUE } from '@talon/shared';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item } from '../../http/envelope.ts';
import { accountAttributes } from '../users/users.presenter.ts';

/** `/api/client/account`, its email and password, and the permission catalogue. */
export function accountRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;

  app.get('/api/client/permissions', async () => ({
    object: 'system_permissions',
    attributes: { permissions: PERMISSION_CATALOGUE },
  }));

  app.get('/api/client/account', async (req) => item('user', accountAttributes(requireActor(req).user)));

  app.put('/api/client/account/email', async (req, reply) => {
    const { user } = requireActor(req);
    await services.account.changeEmail(user, (req.body ?? {}) as Record<string, unknown>, activityActor(req));
    return reply.code(204).send();
  });

  app.put('/api/client/account/password', async (req, reply) => {
    const { user } = requireActor(req);
    await services.account.changePassword(
      user,
      (req.body ?? {}) as Record<string, unknown>,
      activityActor(req),
    );
    // Every other session of the user ends; this one (or the API key) carries on.
    await services.sessions.endOtherSessions(user.id, req.session);
    return reply.code(204).send();
  });
}
