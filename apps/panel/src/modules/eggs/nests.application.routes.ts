import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatEggError } from '@talon/shared';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../http/context.ts';
import { item, list, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { pathId } from '../application/urls.ts';
import { presentEggs, presentNests } from './eggs.includes.ts';
import { EggImportError } from './eggs.service.ts';

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

  /**
   * Our extension (issue 17; the reference has no egg import route, Pelican has one): the body is an
   * egg file, as JSON or as text (JSON or YAML, `Content-Type: text/plain`). An egg of the same uuid
   * or name in the nest is updated in place. 200 with the egg and `meta` { action, matched,
   * warnings }; 422 with one error per problem (`source_field` = the path in the file).
   */
  app.post<NestRoute>('/api/application/nests/:nest/eggs/import', acl('r_eggs'), async (req) => {
    const nest = await nestOf(req.params.nest);
    let outcome;
    try {
      outcome = await ctx.services.eggs.importFile(req.body, nest.id);
    } catch (e) {
      if (!(e instanceof EggImportError)) throw e;
      throw new ValidationFailed(
        e.errors.map((err) => ({ field: err.path, rule: 'egg', detail: formatEggError(err) })),
      );
    }
    const [data] = await presentEggs(sources, [outcome.egg], includesOf(req));
    return item('egg', data, {
      action: outcome.action,
      matched: outcome.matched ?? null,
      warnings: outcome.warnings,
    });
  });
}
