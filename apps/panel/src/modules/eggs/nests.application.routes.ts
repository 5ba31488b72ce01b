import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../http/context.ts';
import { item, list, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { pathId } from '../application/urls.ts';
import { presentEggs, presentNests } from './eggs.includes.ts';

type NestRoute = { Params: { nest: string } };
type EggRoute = { Params: { nest: string; egg: string } };

/** /api/application/nests and their eggs (reference §5.7). */
export function applicationNestRoutes(app: FastifyInstance, ctx: AppContext) {
  const repo = ctx.repositories.eggs;
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  const includesOf = (req: FastifyRequest) =>
    Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));

  const nestOf = async (id: string) => {
    const nest = await repo.findNest(pathId(id));
    if (!nest) throw errors.notFound();
    return nest;
  };

  app.get('/api/application/nests', acl('r_nests'), async (req) => {
    const page = pageRequest(req.query as Record<string, unknown>, { perPage: 50 });
    const { rows, total } = await repo.listNests((page.page - 1) * page.perPage, page.perPage);
    const data = await presentNests(sources, rows, includesOf(req));
    return paginated('nest', data, total, page, requestUrl(req), false);
  });

  app.get<NestRoute>('/api/application/nests/:nest', acl('r_nests'), async (req) => {
    const [data] = await presentNests(sources, [await nestOf(req.params.nest)], includesOf(req));
    return item('nest', data);
  });

  app.get<NestRoute>('/api/application/nests/:nest/eggs', acl('r_eggs'), async (req) => {
    const nest = await nestOf(req.params.nest);
    const eggs = await repo.eggsOfNests([nest.id]);
    return list('egg', await presentEggs(sources, eggs, includesOf(req)));
  });

  app.get<EggRoute>('/api/application/nests/:nest/eggs/:egg', acl('r_eggs'), async (req) => {
    const nest = await nestOf(req.params.nest);
    const egg = await repo.findEgg(pathId(req.params.egg));
    if (!egg || egg.nest_id !== nest.id) throw errors.notFound();
    const [data] = await presentEggs(sources, [egg], includesOf(req));
    return item('egg', data);
  });
}
