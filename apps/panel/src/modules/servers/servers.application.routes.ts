import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, paginated, requestUrl } from '../../http/envelope.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import type { Server } from '../../db/types.ts';
import { ACL_READ, acl, hasAcl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId } from '../application/urls.ts';
import { presentServers } from './servers.application.includes.ts';
import { applicationServerInstallLogRoute } from './servers.install-log.routes.ts';

/** The server's own text that `search` matches (our extension). */
const SERVER_TEXT = [
  'servers.name',
  'servers.uuid_short',
  'servers.uuid',
  'servers.description',
  'servers.external_id',
];

/** Filters, sorts and search of GET /api/application/servers. */
export const APPLICATION_SERVER_LIST: ListSpec = {
  filters: {
    uuid: { column: 'uuid' },
    uuidShort: { column: 'uuid_short' },
    name: { column: 'name' },
    description: { column: 'description' },
    image: { column: 'image' },
    external_id: { column: 'external_id' },
    // Extensions for the admin screens (docs/api.md): exact ids, and the status (`none` = no status).
    owner_id: { column: 'owner_id', exact: true, integer: true },
    node_id: { column: 'node_id', exact: true, integer: true },
    status: { column: 'status', exact: true },
  },
  // Extension sorts: name and created_at.
  sorts: { id: 'id', uuid: 'uuid', name: 'name', created_at: 'created_at' },
  // Extension `search`: the server's own text and its owner's username and email, matched in the
  // list's query itself (correlated subqueries), not in a lookup of its own. The owner's part only
  // for callers that may read users (the list route).
  search: [
    ...SERVER_TEXT,
    sql`(select u.username from users u where u.id = servers.owner_id)`,
    sql`(select u.email from users u where u.id = servers.owner_id)`,
  ],
};

/** The reference validates `search` (a string of at most 100 characters) before ignoring it. */
function checkSearch(query: Record<string, unknown>): void {
  const search = query.search;
  if (search === undefined) return;
  if (typeof search !== 'string') {
    throw new ValidationFailed([{ field: 'search', rule: 'string', detail: 'The search must be a string.' }]);
  }
  if (search.length > 100) {
    throw new ValidationFailed([
      { field: 'search', rule: 'max', detail: 'The search may not be greater than 100 characters.' },
    ]);
  }
}

type IdRoute = { Params: { id: string } };
type IdRequest = FastifyRequest<IdRoute>;

/** /api/application/servers (reference §5.5). */
export function applicationServerRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  const declared = acl('r_servers');
  const sources = { ...repositories, includedServers: services.includedServers };
  /** Servers with the includes the request asks for (reference §5.1). */
  const presentAll = (req: FastifyRequest, servers: Server[]) =>
    presentServers(
      sources,
      servers,
      Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req)),
    );
  const present = async (req: FastifyRequest, server: Server) => (await presentAll(req, [server]))[0];
  const byId = (req: IdRequest) => services.serverManagement.get(pathId(req.params.id));

  app.get('/api/application/servers', declared, async (req) => {
    const query = req.query as Record<string, unknown>;
    checkSearch(query);
    const params = listParams(query, APPLICATION_SERVER_LIST);
    // A match on the owner's username or email would let a key that may not read users spell out
    // owners' emails one substring at a time: such keys search the server's own text only.
    if (params.search && !hasAcl(requireActor(req), 'r_users', ACL_READ))
      params.search = { ...params.search, columns: SERVER_TEXT };
    const { rows, total } = await repositories.servers.applicationList(params);
    const data = await presentAll(req, rows);
    return paginated('server', data, total, params.page, requestUrl(req), false);
  });

  app.get('/api/application/servers/external/:externalId', declared, async (req) => {
    const { externalId } = req.params as { externalId: string };
    const server = await repositories.servers.findByExternalId(externalId);
    if (!server) throw errors.notFound();
    return item('server', await present(req, server));
  });

  app.get<IdRoute>('/api/application/servers/:id', declared, async (req: IdRequest) =>
    item('server', await present(req, await byId(req))),
  );

  app.post('/api/application/servers', declared, async (req, reply) => {
    const server = await services.serverCreation.create(req.body, activityActor(req));
    return reply.code(201).send(item('server', await present(req, server)));
  });

  const action =
    (run: (server: Server, req: IdRequest) => Promise<void>) =>
    async (req: IdRequest, reply: FastifyReply) => {
      await run(await byId(req), req);
      return reply.code(204).send();
    };

  const patch = (run: (server: Server, req: IdRequest) => Promise<void>) => async (req: IdRequest) => {
    const server = await byId(req);
    await run(server, req);
    return item('server', await present(req, await byId(req)));
  };
  app.patch<IdRoute>(
    '/api/application/servers/:id/details',
    declared,
    patch((s, req) => services.serverUpdate.details(s, req.body, activityActor(req))),
  );
  app.patch<IdRoute>(
    '/api/application/servers/:id/build',
    declared,
    patch((s, req) => services.serverUpdate.build(s, req.body, activityActor(req))),
  );
  app.patch<IdRoute>(
    '/api/application/servers/:id/startup',
    declared,
    patch((s, req) => services.serverUpdate.startup(s, req.body, activityActor(req))),
  );

  app.post<IdRoute>(
    '/api/application/servers/:id/suspend',
    declared,
    action((s, req) => services.serverManagement.setSuspended(s, true, activityActor(req))),
  );
  app.post<IdRoute>(
    '/api/application/servers/:id/unsuspend',
    declared,
    action((s, req) => services.serverManagement.setSuspended(s, false, activityActor(req))),
  );
  app.post<IdRoute>(
    '/api/application/servers/:id/reinstall',
    declared,
    action((s, req) => services.serverManagement.reinstall(s, activityActor(req))),
  );
  app.delete<IdRoute>(
    '/api/application/servers/:id',
    declared,
    action((s, req) => services.serverManagement.delete(s, false, activityActor(req))),
  );
  app.delete<IdRoute>(
    '/api/application/servers/:id/force',
    declared,
    action((s, req) => services.serverManagement.delete(s, true, activityActor(req))),
  );
  applicationServerInstallLogRoute(app, ctx);
}
