import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';

/** Two-factor set-up, enabling and disabling (both the reference's and the spec's call forms). */
export function twoFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;

  app.get('/api/client/account/two-factor', async (req) => ({
    data: await services.twoFactor.setup(requireActor(req).user),
  }));

  app.post('/api/client/account/two-factor', async (req) => {
    const { user } = requireActor(req);
    const tokens = await services.twoFactor.enable(user, (req.body ?? {}) as Record<string, unknown>);
    await services.activity.log('user:two-factor.create', activityActor(req), [
      { type: 'user', id: user.id },
    ]);
    return { object: 'recovery_tokens', attributes: { tokens } };
  });

  const disable = async (req: FastifyRequest, password: unknown) => {
    const { user } = requireActor(req);
    await services.twoFactor.disable(user, password);
    await services.activity.log('user:two-factor.delete', activityActor(req), [
      { type: 'user', id: user.id },
    ]);
  };

  app.post('/api/client/account/two-factor/disable', async (req, reply) => {
    await disable(req, ((req.body ?? {}) as Record<string, unknown>).password);
    return reply.code(204).send();
  });

  app.delete('/api/client/account/two-factor', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const body = (req.body ?? {}) as Record<string, unknown>;
    await disable(req, query.password ?? body.password);
    return reply.code(204).send();
  });
}
