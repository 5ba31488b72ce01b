import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { acl } from '../application/acl.ts';
import { planEggTest } from './egg-test.plan.ts';
import { EggTestRuns } from './egg-test-runs.ts';

/**
 * /api/application/egg-tests (extension, docs/api.md "Egg tests"): start a test of an egg (202 with
 * the run) and read it while it goes on. A test creates and deletes a server, so it is declared on
 * the servers resource: an application key needs write access to servers.
 */
export function applicationEggTestRoutes(app: FastifyInstance, ctx: AppContext) {
  const runs = new EggTestRuns(ctx);
  const declared = acl('r_servers');
  // A stopping panel lets its tests remove their servers first.
  app.addHook('onClose', () => runs.settle());

  app.post('/api/application/egg-tests', declared, async (req, reply) => {
    const plan = await planEggTest(ctx, req.body, requireActor(req).user);
    const run = runs.start(plan, activityActor(req));
    return reply.code(202).send(item('egg_test', run));
  });

  app.get<{ Params: { run: string } }>('/api/application/egg-tests/:run', declared, async (req) => {
    const run = runs.get(req.params.run);
    if (!run) throw errors.notFound();
    return item('egg_test', run);
  });
}
