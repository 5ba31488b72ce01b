import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { includes } from '../../http/query.ts';
import { nestedResource, permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { clientDatabaseAttributes } from './databases.presenter.ts';
import { databaseServices } from './databases.wiring.ts';

/**
 * Client API database routes (reference §3.3 "Databases"). `{database}` is found through the
 * server by the guard: another server's database is a 404 before any permission is looked at.
 * Passwords are only shown with `database.view_password` (a null resource otherwise).
 */
export function databaseRoutes(app: FastifyInstance, ctx: AppContext) {
  const { databases } = databaseServices({ ...ctx, activity: ctx.services.activity });
  const prefix = '/api/client/servers/:server/databases';
  const database = nestedResource((access, params) =>
    databases.findForServer(access.server, params.database ?? ''),
  );

  app.get(prefix, serverRoute('database.read'), async (req) => {
    const access = permittedAccess(req);
    const withPassword = includes(req.query as Record<string, unknown>).has('password');
    const rows = await databases.list(access.server.id);
    return list(
      'server_database',
      rows.map((row) =>
        clientDatabaseAttributes(
          databases.ids,
          row,
          withPassword ? databases.visiblePassword(access, row) : undefined,
        ),
      ),
    );
  });

  app.post(prefix, serverRoute('database.create'), async (req) => {
    const access = permittedAccess(req);
    const row = await databases.createForClient(access, req.body, activityActor(req));
    return item(
      'server_database',
      clientDatabaseAttributes(databases.ids, row, databases.visiblePassword(access, row)),
    );
  });

  app.post(
    `${prefix}/:database/rotate-password`,
    serverRoute('database.update', { nested: database }),
    async (req) => {
      const access = permittedAccess(req);
      const row = await databases.rotatePassword(database.of(req), activityActor(req));
      return item(
        'server_database',
        clientDatabaseAttributes(databases.ids, row, databases.visiblePassword(access, row)),
      );
    },
  );

  app.delete(
    `${prefix}/:database`,
    serverRoute('database.delete', { nested: database }),
    async (req, reply) => {
      await databases.delete(database.of(req), activityActor(req));
      return reply.code(204).send();
    },
  );
}
