import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { filters } from '../../http/query.ts';
import { resolveServerAccess, resolveUsableServer, type StateRule } from './server-access.ts';
import { clientServerAttributes } from './servers.presenter.ts';
import type { ListScope } from './servers.repository.ts';

type ServerRequest = FastifyRequest<{ Params: { server: string } }>;

/** The client API's server list and the per-server endpoints of this stage (reference §3.2, §3.3). */
export function serverRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  // 404, then the server's state (409), before the service checks permission and input; the details
  // route alone skips the state check (reference §3.0).
  const access = (req: ServerRequest, rule?: StateRule) =>
    resolveUsableServer(repositories.servers, requireActor(req).user, req.params.server, rule);

  app.get('/api/client', async (req) => {
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
    const { rows, total } = await repositories.servers.list(scope, {
      search: filter['*']?.join(','),
      offset: (page.page - 1) * page.perPage,
      limit: page.perPage,
    });
    const data = [];
    for (const server of rows) {
      const grants = await resolveServerAccess(repositories.servers, user, server.uuid);
      data.push(clientServerAttributes(await repositories.servers.bundle(server), grants));
    }
    return paginated('server', data, total, page, url, true);
  });

  app.get('/api/client/servers/:server', async (req: ServerRequest) => {
    // Shown in every server state.
    const grants = await resolveServerAccess(repositories.servers, requireActor(req).user, req.params.server);
    const bundle = await repositories.servers.bundle(grants.server);
    return item('server', clientServerAttributes(bundle, grants), {
      is_server_owner: grants.isOwner,
      user_permissions: grants.permissions,
    });
  });

  app.get('/api/client/servers/:server/websocket', async (req: ServerRequest) => ({
    data: await services.servers.websocket(await access(req, 'websocket')),
  }));

  app.get('/api/client/servers/:server/resources', async (req: ServerRequest) =>
    item('stats', await services.servers.resources(await access(req))),
  );

  app.post('/api/client/servers/:server/command', async (req: ServerRequest, reply) => {
    await services.servers.command(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });

  app.post('/api/client/servers/:server/power', async (req: ServerRequest, reply) => {
    await services.servers.power(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
}
