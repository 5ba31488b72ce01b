import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { errors } from '../../http/errors.ts';
import { item, list, paginated, pageRequest, requestUrl } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { Includes, NULL_RESOURCE, relItem, withRelationships } from '../application/includes.ts';
import { searchParam } from '../application/listing.ts';
import { pathId, resourceMeta } from '../application/urls.ts';
import { databaseHostAttributes } from './database-hosts.presenter.ts';
import { applicationDatabaseAttributes } from './databases.presenter.ts';
import type { DatabaseWithHost } from './databases.repository.ts';
import { databaseServices } from './databases.wiring.ts';

type HostRoute = { Params: { id: string } };
type DatabaseRoute = { Params: { id: string; db?: string } };

/**
 * /api/application/database-hosts (Pelican's shape, our `engine`) and
 * /api/application/servers/{id}/databases (reference §5.6). Host routes use the `r_database_hosts`
 * resource, server databases `r_server_databases` (§5.0).
 */
export function applicationDatabaseRoutes(app: FastifyInstance, ctx: AppContext) {
  const { hosts, databases } = databaseServices({ ...ctx, activity: ctx.services.activity });
  const hostAcl = acl('r_database_hosts');
  const databaseAcl = acl('r_server_databases');

  app.get('/api/application/database-hosts', hostAcl, async (req) => {
    const query = req.query as Record<string, unknown>;
    const page = pageRequest(query, { perPage: 50, max: 100 });
    // Extension `search=` over name and host (docs/api.md); no filters or sorts, as in Pelican.
    const { rows, total } = await hosts.list(page.page, page.perPage, searchParam(query, ['name', 'host']));
    return paginated('database_host', rows.map(databaseHostAttributes), total, page, requestUrl(req), false);
  });

  app.get<HostRoute>('/api/application/database-hosts/:id', hostAcl, async (req) =>
    item('database_host', databaseHostAttributes(await hosts.get(pathId(req.params.id)))),
  );

  app.post('/api/application/database-hosts', hostAcl, async (req, reply) => {
    const created = await hosts.create(req.body, activityActor(req));
    return reply
      .code(201)
      .send(
        item(
          'database_host',
          databaseHostAttributes(created),
          resourceMeta(req, `/api/application/database-hosts/${created.host.id}`),
        ),
      );
  });

  app.patch<HostRoute>('/api/application/database-hosts/:id', hostAcl, async (req) =>
    item(
      'database_host',
      databaseHostAttributes(await hosts.update(pathId(req.params.id), req.body, activityActor(req))),
    ),
  );

  app.delete<HostRoute>('/api/application/database-hosts/:id', hostAcl, async (req, reply) => {
    await hosts.delete(pathId(req.params.id), activityActor(req));
    return reply.code(204).send();
  });

  /**
   * Extension (docs/api.md): the databases made on a host, each with its server's id and name,
   * for the host's admin page. Not paginated, like the `databases` include of Pterodactyl's own
   * host transformer. Database names and users are server databases' data: `r_server_databases`.
   */
  app.get<HostRoute>('/api/application/database-hosts/:id/databases', databaseAcl, async (req) => {
    const host = await hosts.get(pathId(req.params.id));
    const rows = await databases.listOnHost(host.host.id);
    return list(
      'server_database',
      rows.map((row) =>
        withRelationships(applicationDatabaseAttributes(row), {
          server: relItem('server_summary', { id: row.database.server_id, name: row.serverName }),
        }),
      ),
    );
  });

  /** `password` (no ACL) and `host` (r_database_hosts) includes. */
  const present = async (req: FastifyRequest, row: DatabaseWithHost) => {
    const inc = Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
    const rels: Parameters<typeof withRelationships>[1] = {};
    if (inc.want('password', null) === 'yes') {
      rels.password = relItem('database_password', { password: databases.password(row) });
    }
    const host = inc.want('host', 'r_database_hosts');
    if (host === 'denied') rels.host = NULL_RESOURCE;
    if (host === 'yes')
      rels.host = relItem('database_host', databaseHostAttributes(await hosts.get(row.host.id)));
    return withRelationships(applicationDatabaseAttributes(row), rels);
  };
  const server = (req: FastifyRequest<DatabaseRoute>) =>
    ctx.services.serverManagement.get(pathId(req.params.id));
  /**
   * The database of the path's server, looked up through that server: one of another server is
   * 404 like an unknown one, before anything reaches its host (issue 23, item 9).
   */
  const databaseOf = async (req: FastifyRequest<DatabaseRoute>) => {
    const s = await server(req);
    const row = await databases.findById(req.params.db ?? '');
    if (row.database.server_id !== s.id) throw errors.notFound();
    return row;
  };
  const prefix = '/api/application/servers/:id/databases';

  app.get<DatabaseRoute>(prefix, databaseAcl, async (req) => {
    const s = await server(req);
    return list(
      'server_database',
      await Promise.all((await databases.list(s.id)).map((row) => present(req, row))),
    );
  });

  app.get<DatabaseRoute>(`${prefix}/:db`, databaseAcl, async (req) => {
    return item('server_database', await present(req, await databaseOf(req)));
  });

  app.post<DatabaseRoute>(prefix, databaseAcl, async (req, reply) => {
    const s = await server(req);
    const row = await databases.createForApplication(s, req.body, activityActor(req));
    return reply
      .code(201)
      .send(
        item(
          'server_database',
          await present(req, row),
          resourceMeta(req, `/api/application/servers/${s.id}/databases/${row.database.id}`),
        ),
      );
  });

  app.post<DatabaseRoute>(`${prefix}/:db/reset-password`, databaseAcl, async (req, reply) => {
    await databases.rotatePassword(await databaseOf(req), activityActor(req));
    return reply.code(204).send();
  });

  app.delete<DatabaseRoute>(`${prefix}/:db`, databaseAcl, async (req, reply) => {
    await databases.delete(await databaseOf(req), activityActor(req));
    return reply.code(204).send();
  });
}
