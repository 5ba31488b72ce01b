import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { requireActor } from '../../http/context.ts';
import { pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { filters, includes, sorts } from '../../http/query.ts';
import { activityAttributes } from './activity.presenter.ts';

/** The caller's own account activity. */
export function activityRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories } = ctx;

  app.get('/api/client/account/activity', async (req) => {
    const { user } = requireActor(req);
    const query = req.query as Record<string, unknown>;
    const page = pageRequest(query, { perPage: 25, max: 100 });
    const filter = filters(query, ['event']);
    const [sort] = sorts(query, ['timestamp']);
    const { rows, total } = await repositories.activity.forSubject(
      { type: 'user', id: user.id },
      {
        eventLike: filter.event,
        descending: sort?.descending ?? false,
        offset: (page.page - 1) * page.perPage,
        limit: page.perPage,
      },
    );
    const withActor = includes(query).has('actor');
    const actors = new Map<number, User | undefined>();
    if (withActor) {
      for (const id of new Set(rows.map((r) => r.actor_id).filter((v): v is number => v !== null))) {
        actors.set(id, await repositories.users.findById(id));
      }
    }
    const data = rows.map((r) =>
      activityAttributes(r, user, r.actor_id === null ? undefined : actors.get(r.actor_id), withActor),
    );
    return paginated('activity_log', data, total, page, requestUrl(req), true);
  });
}
