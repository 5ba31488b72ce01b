import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated, requestUrl } from '../../http/envelope.ts';
import type { Location } from '../../db/types.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId, resourceMeta } from '../application/urls.ts';
import { presentLocations } from './locations.includes.ts';

const LIST: ListSpec = {
  filters: { short: { column: 'short' }, long: { column: 'long' } },
  // `short` and `search`: extensions for the admin screens (docs/api.md).
  sorts: { id: 'id', short: 'short' },
  search: ['short', 'long'],
};

type IdParams = { Params: { id: string } };

/** /api/application/locations (reference §5.4). */
export function applicationLocationRoutes(app: FastifyInstance, ctx: AppContext) {
  const { locations } = ctx.services;
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  const declared = acl('r_locations');

  /** Locations with the `nodes` and `servers` includes. */
  const present = (req: FastifyRequest, rows: Location[]) =>
    presentLocations(
      sources,
      rows,
      Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req)),
    );
  const one = async (req: FastifyRequest, l: Location) => (await present(req, [l]))[0];

  app.get('/api/application/locations', declared, async (req) => {
    const params = listParams(req.query as Record<string, unknown>, LIST);
    const { rows, total } = await locations.list(params);
    return paginated('location', await present(req, rows), total, params.page, requestUrl(req), false);
  });

  app.get<IdParams>('/api/application/locations/:id', declared, async (req) =>
    item('location', await one(req, await locations.get(pathId(req.params.id)))),
  );

  app.post('/api/application/locations', declared, async (req, reply) => {
    const location = await locations.create(req.body, activityActor(req));
    return reply
      .code(201)
      .send(
        item(
          'location',
          await one(req, location),
          resourceMeta(req, `/api/application/locations/${location.id}`),
        ),
      );
  });

  app.patch<IdParams>('/api/application/locations/:id', declared, async (req) =>
    item(
      'location',
      await one(req, await locations.update(pathId(req.params.id), req.body, activityActor(req))),
    ),
  );

  app.delete<IdParams>('/api/application/locations/:id', declared, async (req, reply) => {
    await locations.delete(pathId(req.params.id), activityActor(req));
    return reply.code(204).send();
  });
}
