import { APPLICATION_KEY_RESOURCES } from '@talon/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { acl } from '../application/acl.ts';
import { applicationApiKeyAttributes, column } from './api-keys.application.presenter.ts';
import { KEY_RULES, KEY_TYPE } from './api-keys.service.ts';

/** Each resource's right: absent means none. */
const PERMISSION_RULES = {
  permissions: 'required|array',
  ...Object.fromEntries(
    APPLICATION_KEY_RESOURCES.map((r) => [`permissions.${r}`, 'sometimes|required|in:0,1,3']),
  ),
};

/**
 * /api/application/api-keys (extension, docs/api.md): the calling admin's application keys, as the
 * admin area's API keys screen manages them. A root admin's session only: a key cannot mint keys.
 */
export function applicationApiKeyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { apiKeys, activity } = ctx.services;
  const declared = acl('session');

  app.get('/api/application/api-keys', declared, async (req) => {
    const keys = await apiKeys.list(requireActor(req).user, KEY_TYPE.application);
    const page = pageRequest(req.query as Record<string, unknown>, { perPage: 50, max: 100 });
    const rows = keys.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    return paginated(
      'api_key',
      rows.map(applicationApiKeyAttributes),
      keys.length,
      page,
      requestUrl(req),
      false,
    );
  });

  app.post('/api/application/api-keys', declared, async (req, reply) => {
    const { user } = requireActor(req);
    const body = check<{
      description?: unknown;
      allowed_ips?: unknown;
      permissions: Record<string, unknown>;
    }>(req.body, { ...KEY_RULES, ...PERMISSION_RULES }); // every bad field in one answer
    const permissions = Object.fromEntries(
      APPLICATION_KEY_RESOURCES.map((r) => [column(r), Number(body.permissions[r] ?? 0)]),
    );
    const { key, secret } = await apiKeys.create(user, KEY_TYPE.application, body, permissions);
    await activity.log('admin:api-key.create', activityActor(req), [{ type: 'user', id: user.id }], {
      identifier: key.identifier,
    });
    return reply
      .code(201)
      .send(item('api_key', applicationApiKeyAttributes(key), { secret_token: key.identifier + secret }));
  });

  app.delete<{ Params: { identifier: string } }>(
    '/api/application/api-keys/:identifier',
    declared,
    async (req, reply) => {
      const { user } = requireActor(req);
      if (!(await apiKeys.delete(user, req.params.identifier, KEY_TYPE.application))) throw errors.notFound();
      await activity.log('admin:api-key.delete', activityActor(req), [{ type: 'user', id: user.id }], {
        identifier: req.params.identifier,
      });
      return reply.code(204).send();
    },
  );
}
