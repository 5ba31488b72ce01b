import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Node } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { check } from '../../http/input.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { MAX_ID, pathId, resourceMeta } from '../application/urls.ts';
import { nodeConfiguration } from './nodes.configuration.ts';
import { presentNodes } from './nodes.includes.ts';
import { applicationNodeExtensionRoutes } from './node-extensions.routes.ts';

const LIST: ListSpec = {
  filters: {
    uuid: { column: 'uuid' },
    name: { column: 'name' },
    fqdn: { column: 'fqdn' },
    daemon_token_id: { column: 'daemon_token_id' },
  },
  // `name` and `search` are our extensions (docs/api.md "Lists").
  sorts: { id: 'id', uuid: 'uuid', memory: 'memory', disk: 'disk', name: 'name' },
  search: ['name', 'fqdn'],
};

type IdParams = { Params: { id: string } };
type Query = Record<string, unknown>;

/** `location_ids[]=1&location_ids[]=2`, `location_ids[0]=1` and `location_ids=1,2` all work. */
function locationIds(query: Query): unknown[] | null {
  const keys = Object.keys(query).filter((k) => /^location_ids(\[\d*\])?$/u.test(k));
  if (keys.length === 0) return null;
  return keys.flatMap((k) => [query[k]].flat()).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
}

/** /api/application/nodes (reference §5.3). */
export function applicationNodeRoutes(app: FastifyInstance, ctx: AppContext) {
  const { nodes } = ctx.services;
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  const declared = acl('r_nodes');
  const includesOf = (req: FastifyRequest) => Includes.fromQuery(req.query as Query, requireActor(req));
  const one = async (req: FastifyRequest, node: Node) =>
    (await presentNodes(sources, [node], includesOf(req)))[0];

  app.get('/api/application/nodes', declared, async (req) => {
    const params = listParams(req.query as Query, LIST);
    const { rows, total } = await nodes.list(params);
    const data = await presentNodes(sources, rows, includesOf(req));
    return paginated('node', data, total, params.page, requestUrl(req), false);
  });

  app.get('/api/application/nodes/deployable', declared, async (req) => {
    const query = req.query as Query;
    const ids = locationIds(query);
    const input = check<{ memory: string; disk: string; page?: string }>(
      // Absent parameters stay absent, so `sometimes` rules skip them.
      Object.fromEntries(
        Object.entries({
          memory: query.memory,
          disk: query.disk,
          page: query.page,
          location_ids: ids ?? undefined,
        }).filter(([, v]) => v !== undefined),
      ),
      {
        memory: 'required|integer|min:0',
        disk: 'required|integer|min:0',
        location_ids: 'sometimes|array',
        'location_ids.*': 'integer',
        page: 'sometimes|nullable|integer',
      },
    );
    const viable = await nodes.viable({
      memory: Number(input.memory),
      disk: Number(input.disk),
      locationIds: ids ? ids.map(Number).filter((id) => Math.abs(id) <= MAX_ID) : null,
    });
    // Presented like any node: the original's leaked `sum_*` columns are not part of the object.
    if (input.page === undefined || input.page === null) {
      return list('node', await presentNodes(sources, viable, includesOf(req)));
    }
    const page = pageRequest(query, { perPage: 50 });
    const slice = viable.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    const data = await presentNodes(sources, slice, includesOf(req));
    return paginated('node', data, viable.length, page, requestUrl(req), false);
  });

  app.get<IdParams>('/api/application/nodes/:id', declared, async (req) =>
    item('node', await one(req, await nodes.get(pathId(req.params.id)))),
  );

  // Raw JSON, not an envelope: it is the daemon's configuration file. The node token in it controls
  // every server of the node, so only a root admin's session gets it; API keys get the rest
  // (issue 23; docs/compatibility.md: the incumbent gives it to any key with node read).
  app.get<IdParams>('/api/application/nodes/:id/configuration', declared, async (req) => {
    const node = await nodes.get(pathId(req.params.id));
    const configuration = nodeConfiguration(node, ctx.config.appKey, ctx.config.appUrl);
    if (requireActor(req).apiKey === null) return configuration;
    const { token: _secret, ...withoutToken } = configuration;
    return withoutToken;
  });

  app.post('/api/application/nodes', declared, async (req, reply) => {
    const node = await nodes.create(req.body, activityActor(req));
    return reply
      .code(201)
      .send(item('node', await one(req, node), resourceMeta(req, `/api/application/nodes/${node.id}`)));
  });

  app.patch<IdParams>('/api/application/nodes/:id', declared, async (req) =>
    item('node', await one(req, await nodes.update(pathId(req.params.id), req.body, activityActor(req)))),
  );

  app.delete<IdParams>('/api/application/nodes/:id', declared, async (req, reply) => {
    await nodes.delete(pathId(req.params.id), activityActor(req));
    return reply.code(204).send();
  });

  applicationNodeExtensionRoutes(app, ctx);
}
