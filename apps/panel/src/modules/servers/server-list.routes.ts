import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../http/context.ts';
import { pageRequest, paginated } from '../../http/envelope.ts';
import { filters } from '../../http/query.ts';
import { requestUrl } from '../activity/activity.routes.ts';

/**
 * GET /api/client: the servers the caller can see. Servers themselves arrive with the server
 * domain (nodes, eggs, daemon); until a panel has any, every list is empty, with the filters and
 * pagination of the contract already applied.
 */
export function serverListRoutes(app: FastifyInstance, _ctx: AppContext) {
  app.get('/api/client', async (req) => {
    requireActor(req);
    const query = req.query as Record<string, unknown>;
    filters(query, ['uuid', 'name', 'description', 'external_id', '*']);
    const page = pageRequest(query, { perPage: 50, max: 100 });
    return paginated('server', [], 0, page, requestUrl(req), true);
  });
}
