import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { requireActor } from '../../http/context.ts';
import { pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { filters, includes, sorts } from '../../http/query.ts';
import { permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { activityAttributes } from './activity.presenter.ts';
import type { ActivityRepository } from './activity.repository.ts';

/**
 * The activity lists (reference §3.2 account, §3.3 server): the same query rules for both
 * (`filter[event]` partial, `sort=timestamp|-timestamp`, `include=actor`, 25 per page up to 100),
 * links keeping the query.
 */
export function activityRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, config } = ctx;

  app.get('/api/client/account/activity', async (req) => {
    const { user } = requireActor(req);
    return activityPage(repositories.activity, req, user, { type: 'user', id: user.id });
  });

  app.get('/api/client/servers/:server/activity', serverRoute('activity.read'), async (req) => {
    const { user, server } = permittedAccess(req);
    return activityPage(
      repositories.activity,
      req,
      user,
      { type: 'server', id: server.id },
      {
        hideAdminsOf: config.activityHideAdmin
          ? { serverId: server.id, ownerId: server.owner_id }
          : undefined,
      },
    );
  });
}

async function activityPage(
  repo: ActivityRepository,
  req: FastifyRequest,
  viewer: User,
  subject: { type: string; id: number },
  extra: { hideAdminsOf?: { serverId: number; ownerId: number } } = {},
) {
  const query = req.query as Record<string, unknown>;
  const page = pageRequest(query, { perPage: 25, max: 100 });
  const filter = filters(query, ['event']);
  const [sort] = sorts(query, ['timestamp']);
  const { rows, total } = await repo.forSubject(subject, {
    eventLike: filter.event,
    descending: sort?.descending ?? false,
    offset: (page.page - 1) * page.perPage,
    limit: page.perPage,
    ...extra,
  });
  const withActor = includes(query).has('actor');
  const actorIds = rows.map((r) => r.actor_id).filter((id): id is number => id !== null);
  const actors = new Map((withActor ? await repo.actors(actorIds) : []).map((u) => [u.id, u]));
  const data = rows.map((r) =>
    activityAttributes(r, viewer, r.actor_id === null ? undefined : actors.get(r.actor_id), withActor),
  );
  return paginated('activity_log', data, total, page, requestUrl(req), true);
}
