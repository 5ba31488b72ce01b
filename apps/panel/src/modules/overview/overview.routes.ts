import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { item } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { OverviewRepository } from './overview.repository.ts';
import { OverviewService } from './overview.service.ts';

/** GET /api/application/overview (extension, docs/api.md): the admin area's first screen. */
export function applicationOverviewRoutes(app: FastifyInstance, ctx: AppContext) {
  const overview = new OverviewService(new OverviewRepository(ctx.db.db));
  app.get('/api/application/overview', acl('session'), async () =>
    item('overview', await overview.overview()),
  );
}
