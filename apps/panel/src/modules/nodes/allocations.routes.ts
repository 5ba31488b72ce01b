import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated, requestUrl } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId } from '../application/urls.ts';
import { presentAllocations } from './allocations.includes.ts';

const LIST: ListSpec = {
  filters: {
    ip: { column: 'ip', exact: true },
    port: { column: 'port', exact: true, integer: true },
    ip_alias: { column: 'ip_alias' },
    // handled apart (below): its semantics are not a plain column match
    server_id: { column: 'server_id' },
  },
  sorts: {},
};

type Query = Record<string, unknown>;

/**
 * `filter[server_id]`: digits select that server's allocations; anything else (empty, true, false,
 * text) selects the unassigned ones. The global input rule turns an empty value into null, so the
 * key's presence is what counts.
 */
function serverFilter(query: Query): number | null | undefined {
  if (!('filter[server_id]' in query)) return undefined;
  const value = query['filter[server_id]'];
  return typeof value === 'string' && /^\d{1,9}$/u.test(value) ? Number(value) : null;
}

/** /api/application/nodes/{id}/allocations (reference §5.3). */
export function applicationAllocationRoutes(app: FastifyInstance, ctx: AppContext) {
  const { allocations } = ctx.services;
  const declared = acl('r_allocations');
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };

  app.get<{ Params: { id: string } }>('/api/application/nodes/:id/allocations', declared, async (req) => {
    const query = req.query as Query;
    const params = listParams(query, LIST);
    params.filters = params.filters.filter((f) => f.column !== 'server_id');
    const nodeId = pathId(req.params.id);
    const { rows, total } = await allocations.list(nodeId, params, serverFilter(query));
    const data = await presentAllocations(sources, rows, Includes.fromQuery(query, requireActor(req)));
    return paginated('allocation', data, total, params.page, requestUrl(req), false);
  });

  app.post<{ Params: { id: string } }>(
    '/api/application/nodes/:id/allocations',
    declared,
    async (req, reply) => {
      await allocations.create(pathId(req.params.id), req.body, activityActor(req));
      return reply.code(204).send();
    },
  );

  // Our extension: alias and notes of one allocation (docs/api.md "Nodes").
  app.patch<{ Params: { id: string; allocation: string } }>(
    '/api/application/nodes/:id/allocations/:allocation',
    declared,
    async (req) => {
      const allocation = await allocations.update(
        pathId(req.params.id),
        pathId(req.params.allocation),
        req.body,
        activityActor(req),
      );
      const [attributes] = await presentAllocations(
        sources,
        [allocation],
        Includes.fromQuery(req.query as Query, requireActor(req)),
      );
      return item('allocation', attributes);
    },
  );

  app.delete<{ Params: { id: string; allocation: string } }>(
    '/api/application/nodes/:id/allocations/:allocation',
    declared,
    async (req, reply) => {
      await allocations.delete(pathId(req.params.id), pathId(req.params.allocation), activityActor(req));
      return reply.code(204).send();
    },
  );
}
