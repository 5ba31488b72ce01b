import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated } from '../../http/envelope.ts';
import type { Location } from '../../db/types.ts';
import { acl } from '../application/acl.ts';
import { Includes, NULL_RESOURCE, relList, withRelationships } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId, requestUrl, resourceMeta } from '../application/urls.ts';
import { nodeAttributes } from '../nodes/nodes.presenter.ts';
import { locationAttributes } from './locations.presenter.ts';

const LIST: ListSpec = {
  filters: { short: { column: 'short' }, long: { column: 'long' } },
  sorts: { id: 'id' },
};

type IdParams = { Params: { id: string } };

/** /api/application/locations (reference §5.4). */
export function applicationLocationRoutes(app: FastifyInstance, ctx: AppContext) {
  const { locations } = ctx.services;
  const { repositories } = ctx;
  const preHandler = acl('r_locations');

  /** Locations with the `nodes` include (`servers` arrives with the servers' presenter). */
  async function present(
    req: { query: unknown; actor: Parameters<typeof requireActor>[0]['actor'] },
    rows: Location[],
  ) {
    const inc = Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
    const wantNodes = inc.want('nodes', 'r_nodes');
    const nodes = wantNodes === 'yes' ? await repositories.nodes.inLocations(rows.map((l) => l.id)) : [];
    const allocated = await repositories.nodes.allocated(nodes.map((n) => n.id));
    return rows.map((l) =>
      withRelationships(
        locationAttributes(l),
        wantNodes === 'no'
          ? {}
          : {
              nodes:
                wantNodes === 'denied'
                  ? NULL_RESOURCE
                  : relList(
                      'node',
                      nodes
                        .filter((n) => n.location_id === l.id)
                        .map((n) => nodeAttributes(n, allocated.get(n.id) ?? { memory: 0, disk: 0 })),
                    ),
            },
      ),
    );
  }
  const one = async (req: Parameters<typeof present>[0], l: Location) => (await present(req, [l]))[0];

  app.get('/api/application/locations', { preHandler }, async (req) => {
    const params = listParams(req.query as Record<string, unknown>, LIST);
    const { rows, total } = await locations.list(params);
    return paginated('location', await present(req, rows), total, params.page, requestUrl(req), false);
  });

  app.get<IdParams>('/api/application/locations/:id', { preHandler }, async (req) =>
    item('location', await one(req, await locations.get(pathId(req.params.id)))),
  );

  app.post('/api/application/locations', { preHandler }, async (req, reply) => {
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

  app.patch<IdParams>('/api/application/locations/:id', { preHandler }, async (req) =>
    item(
      'location',
      await one(req, await locations.update(pathId(req.params.id), req.body, activityActor(req))),
    ),
  );

  app.delete<IdParams>('/api/application/locations/:id', { preHandler }, async (req, reply) => {
    await locations.delete(pathId(req.params.id), activityActor(req));
    return reply.code(204).send();
  });
}
