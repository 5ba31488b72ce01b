import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { apiKeyAttributes } from './api-keys.presenter.ts';
import { KEY_TYPE } from './api-keys.service.ts';

/** The caller's client API keys. */
export function apiKeyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;

  app.get('/api/client/account/api-keys', async (req) => {
    const keys = await services.apiKeys.list(requireActor(req).user, KEY_TYPE.client);
    return list('api_key', keys.map(apiKeyAttributes));
  });

  app.post('/api/client/account/api-keys', async (req) => {
    const { user } = requireActor(req);
    const { key, secret } = await services.apiKeys.create(user, KEY_TYPE.client, req.body ?? {});
    await services.activity.log('user:api-key.create', activityActor(req), [{ type: 'user', id: user.id }], {
      identifier: key.identifier,
    });
    return item('api_key', apiKeyAttributes(key), { secret_token: secret });
  });

  app.delete<{ Params: { identifier: string } }>(
    '/api/client/account/api-keys/:identifier',
    async (req, reply) => {
      const { user } = requireActor(req);
      if (!(await services.apiKeys.delete(user, req.params.identifier, KEY_TYPE.client)))
        throw errors.notFound();
      await services.activity.log(
        'user:api-key.delete',
        activityActor(req),
        [{ type: 'user', id: user.id }],
        {
          identifier: req.params.identifier,
        },
      );
      return reply.code(204).send();
    },
  );
}
