import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { HttpError } from '../../http/errors.ts';
import { filters } from '../../http/query.ts';
import { permittedAccess, serverAccess, serverRoute } from '../../http/server-guard.ts';
import { GenerationCache } from './generation-cache.ts';
import { clientServerPage } from './server-list.ts';
import { optionalServerRelationships } from './server-includes.ts';
import { clientServerAttributes } from './servers.presenter.ts';
import type { ListScope } from './servers.repository.ts';
import { socketPermissions } from './server-access.ts';
import { powerPermission } from './servers.service.ts';

const websocketDenied = () =>
  new HttpError(
    403,
    'HttpForbiddenException',
    "You do not have permission to connect to this server's websocket.",
  );

/** The client API's server list and the per-server endpoints of this stage (reference §3.2, §3.3). */
export function serverRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;

  // Serialised list answers (eight queries and ~1.6 KB of JSON per server to build) by caller and URL.
  const listCache = new GenerationCache<Buffer>({
    maxEntries: 2000,
    maxBytes: 32 << 20,
    sizeOf: (b) => b.length,
  });
  app.get('/api/client', async (req, reply) => {
    const { user } = requireActor(req);
    const query = req.query as Record<string, unknown>;
    const filter = filters(query, ['uuid', 'name', 'description', 'external_id', '*']);
    const page = pageRequest(query, { perPage: 50, max: 100 });
    const type = typeof query.type === 'string' ? query.type : '';
    const admin = user.root_admin === 1;
    let scope: ListScope = { kind: 'member', userId: user.id };
    if (type === 'owner') scope = { kind: 'owner', userId: user.id };
    if (type === 'admin') scope = { kind: 'others', userId: user.id };
    if (type === 'admin-all') scope = { kind: 'all' };
    const url = requestUrl(req);
    if ((type === 'admin' || type === 'admin-all') && !admin)
      return paginated('server', [], 0, page, url, true);
    // The generation is read before the rows, so a stored answer is never newer than its label.
    const key = `${user.id} ${url.href}`;
    const generation = await repositories.servers.listGeneration();
    let body = listCache.get(key, generation);
    if (!body) {
      const { data, total } = await clientServerPage(repositories.servers, user, scope, {
        search: filter['*']?.join(','),
        offset: (page.page - 1) * page.perPage,
        limit: page.perPage,
        relationships: (shown) => optionalServerRelationships(req.query, shown, repositories.subusers),
      });
      body = Buffer.from(JSON.stringify(paginated('server', data, total, page, url, true)));
      listCache.set(key, generation, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });

  // Shown in every server state (reference §3.0).
  app.get('/api/client/servers/:server', serverRoute('any', { state: 'none' }), async (req) => {
    const grants = serverAccess(req);
    const bundle = await repositories.servers.bundle(grants.server);
    const attributes = clientServerAttributes(bundle, grants);
    const [extra] = await optionalServerRelationships(
      req.query,
      [{ bundle, access: grants }],
      repositories.subusers,
    );
    const withIncludes = { ...attributes, relationships: { ...attributes.relationships, ...extra } };
    return item('server', withIncludes, {
      is_server_owner: grants.isOwner,
      user_permissions: socketPermissions(grants),
    });
  });

  const websocket = serverRoute('websocket.connect', { state: 'websocket', denied: websocketDenied });
  app.get('/api/client/servers/:server/websocket', websocket, async (req) => ({
    data: await services.servers.websocket(permittedAccess(req)),
  }));

  app.get('/api/client/servers/:server/resources', serverRoute('any'), async (req) =>
    item('stats', await services.servers.resources(permittedAccess(req))),
  );

  app.post('/api/client/servers/:server/command', serverRoute('control.console'), async (req, reply) => {
    await services.servers.command(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });

  // The signal decides the permission (reference §3.3 "power").
  const power = serverRoute((req) => powerPermission(req.body));
  app.post('/api/client/servers/:server/power', power, async (req, reply) => {
    await services.servers.power(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
}
