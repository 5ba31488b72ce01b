import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { InstallLogAttributes } from '@talon/shared/wings/install-log';
import type { AppContext } from '../../context.ts';
import { item } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { pathId } from '../application/urls.ts';

/**
 * `GET /api/application/servers/:id/install-log` (our extension, docs/api.md): the last install's
 * log as the server's node kept it, for the admin server view. The log lists the install's whole
 * environment (hidden variables too), so it is an application route: root admins and keys that
 * may read servers, as the server's own environment already is.
 */
export function applicationServerInstallLogRoute(app: FastifyInstance, ctx: AppContext) {
  app.get(
    '/api/application/servers/:id/install-log',
    acl('r_servers'),
    async (req: FastifyRequest<{ Params: { id: string } }>) => {
      const server = await ctx.services.serverManagement.get(pathId(req.params.id));
      const content = await ctx.services.serverManagement.installLog(server);
      return item<InstallLogAttributes>('server_install_log', { content });
    },
  );
}
