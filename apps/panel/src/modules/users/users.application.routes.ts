import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId, requestUrl, resourceMeta } from '../application/urls.ts';
import { applicationUserAttributes } from './users.application.presenter.ts';

const LIST: ListSpec = {
  filters: {
    email: { column: 'email' },
    uuid: { column: 'uuid' },
    username: { column: 'username' },
    external_id: { column: 'external_id' },
  },
  sorts: { id: 'id', uuid: 'uuid' },
};

type IdParams = { Params: { id: string } };

/** /api/application/users (reference §5.2). */
export function applicationUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const users = ctx.services.applicationUsers;
  const preHandler = acl('r_users');
  const present = (u: Parameters<typeof applicationUserAttributes>[0], meta?: Record<string, unknown>) =>
    item('user', applicationUserAttributes(u), meta);

  app.get('/api/application/users', { preHandler }, async (req) => {
    const params = listParams(req.query as Record<string, unknown>, LIST);
    const { rows, total } = await users.list(params);
    return paginated('user', rows.map(applicationUserAttributes), total, params.page, requestUrl(req), false);
  });

  app.get<{ Params: { externalId: string } }>(
    '/api/application/users/external/:externalId',
    { preHandler },
    async (req) => present(await users.getByExternalId(req.params.externalId)),
  );

  app.get<IdParams>('/api/application/users/:id', { preHandler }, async (req) => {
    return present(await users.get(pathId(req.params.id)));
  });

  app.post('/api/application/users', { preHandler }, async (req, reply) => {
    requireActor(req);
    const user = await users.create(req.body, activityActor(req));
    return reply.code(201).send(present(user, resourceMeta(req, `/api/application/users/${user.id}`)));
  });

  app.patch<IdParams>('/api/application/users/:id', { preHandler }, async (req) => {
    return present(await users.update(pathId(req.params.id), req.body, activityActor(req)));
  });

  app.delete<IdParams>('/api/application/users/:id', { preHandler }, async (req, reply) => {
    await users.delete(pathId(req.params.id), activityActor(req));
    ctx.services.apiKeys.forgetCached();
    return reply.code(204).send();
  });
}
