import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated, requestUrl } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId, resourceMeta } from '../application/urls.ts';
import { presentUsers } from './users.application.includes.ts';

const LIST: ListSpec = {
  filters: {
    email: { column: 'email' },
    uuid: { column: 'uuid' },
    username: { column: 'username' },
    external_id: { column: 'external_id' },
  },
  // username, email and created_at, and `search`: extensions for the admin screens (docs/api.md).
  sorts: { id: 'id', uuid: 'uuid', username: 'username', email: 'email', created_at: 'created_at' },
  search: ['username', 'email', 'name_first', 'name_last'],
};

type IdParams = { Params: { id: string } };

/** /api/application/users (reference §5.2). */
export function applicationUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const users = ctx.services.applicationUsers;
  const declared = acl('r_users');

  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  /** Users with the `servers` include. */
  const presentAll = (req: FastifyRequest, rows: User[]) =>
    presentUsers(sources, rows, Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req)));
  const present = async (req: FastifyRequest, u: User, meta?: Record<string, unknown>) =>
    item('user', (await presentAll(req, [u]))[0], meta);

  app.get('/api/application/users', declared, async (req) => {
    const params = listParams(req.query as Record<string, unknown>, LIST);
    const { rows, total } = await users.list(params);
    return paginated('user', await presentAll(req, rows), total, params.page, requestUrl(req), false);
  });

  app.get<{ Params: { externalId: string } }>(
    '/api/application/users/external/:externalId',
    declared,
    async (req) => present(req, await users.getByExternalId(req.params.externalId)),
  );

  app.get<IdParams>('/api/application/users/:id', declared, async (req) =>
    present(req, await users.get(pathId(req.params.id))),
  );

  app.post('/api/application/users', declared, async (req, reply) => {
    const user = await users.create(req.body, activityActor(req));
    return reply
      .code(201)
      .send(await present(req, user, resourceMeta(req, `/api/application/users/${user.id}`)));
  });

  app.patch<IdParams>('/api/application/users/:id', declared, async (req) =>
    present(req, await users.update(pathId(req.params.id), req.body, activityActor(req))),
  );

  /** Extension for the admin screens: turns the user's two-factor off (a lost phone) and deletes their recovery tokens. */
  app.delete<IdParams>('/api/application/users/:id/two-factor', declared, async (req, reply) => {
    await users.disableTwoFactor(pathId(req.params.id), activityActor(req));
    return reply.code(204).send();
  });

  app.delete<IdParams>('/api/application/users/:id', declared, async (req, reply) => {
    await users.delete(pathId(req.params.id), activityActor(req));
    // Keys of the deleted user must stop working at once, not when the key cache expires.
    ctx.services.apiKeys.forgetCached();
    return reply.code(204).send();
  });
}
