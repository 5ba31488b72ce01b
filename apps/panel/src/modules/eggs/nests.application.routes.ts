import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Egg } from '../../db/types.ts';
import { requireActor } from '../../http/context.ts';
import { item, list, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { acl } from '../application/acl.ts';
import { Includes, NULL_RESOURCE, relItem, relList, withRelationships } from '../application/includes.ts';
import { pathId } from '../application/urls.ts';
import { eggAttributes, eggVariableAttributes, nestAttributes } from './eggs.presenter.ts';

type NestRoute = { Params: { nest: string } };
type EggRoute = { Params: { nest: string; egg: string } };

/** /api/application/nests and their eggs (reference §5.7). */
export function applicationNestRoutes(app: FastifyInstance, ctx: AppContext) {
  const repo = ctx.repositories.eggs;

  const presentEggs = async (req: FastifyRequest, eggs: Egg[]) => {
    const inc = Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
    const wantVariables = inc.want('variables', 'r_eggs');
    const wantNest = inc.want('nest', 'r_nests');
    return Promise.all(
      eggs.map(async (e) => {
        const relationships: Parameters<typeof withRelationships>[1] = {};
        if (wantVariables !== 'no') {
          relationships.variables =
            wantVariables === 'denied'
              ? NULL_RESOURCE
              : relList('egg_variable', (await repo.variables(e.id)).map(eggVariableAttributes));
        }
        if (wantNest !== 'no') {
          const nest = await repo.findNest(e.nest_id);
          relationships.nest =
            wantNest === 'denied' || !nest ? NULL_RESOURCE : relItem('nest', nestAttributes(nest));
        }
        return withRelationships(eggAttributes(e), relationships);
      }),
    );
  };

  const nestOf = async (id: string) => {
    const nest = await repo.findNest(pathId(id));
    if (!nest) throw errors.notFound();
    return nest;
  };

  app.get('/api/application/nests', { preHandler: acl('r_nests') }, async (req) => {
    const page = pageRequest(req.query as Record<string, unknown>, { perPage: 50 });
    const { rows, total } = await repo.listNests((page.page - 1) * page.perPage, page.perPage);
    const inc = Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
    const wantEggs = inc.want('eggs', 'r_eggs');
    const eggs = wantEggs === 'yes' ? await repo.eggsOfNests(rows.map((n) => n.id)) : [];
    const data = rows.map((n) =>
      withRelationships(
        nestAttributes(n),
        wantEggs === 'no'
          ? {}
          : {
              eggs:
                wantEggs === 'denied'
                  ? NULL_RESOURCE
                  : relList('egg', eggs.filter((e) => e.nest_id === n.id).map(eggAttributes)),
            },
      ),
    );
    return paginated('nest', data, total, page, requestUrl(req), false);
  });

  app.get<NestRoute>('/api/application/nests/:nest', { preHandler: acl('r_nests') }, async (req) =>
    item('nest', nestAttributes(await nestOf(req.params.nest))),
  );

  app.get<NestRoute>('/api/application/nests/:nest/eggs', { preHandler: acl('r_eggs') }, async (req) => {
    const nest = await nestOf(req.params.nest);
    const eggs = await repo.eggsOfNests([nest.id]);
    const data = await presentEggs(req, eggs);
    return list('egg', data);
  });

  app.get<EggRoute>('/api/application/nests/:nest/eggs/:egg', { preHandler: acl('r_eggs') }, async (req) => {
    const nest = await nestOf(req.params.nest);
    const egg = await repo.findEgg(pathId(req.params.egg));
    if (!egg || egg.nest_id !== nest.id) throw errors.notFound();
    const [data] = await presentEggs(req, [egg]);
    return item('egg', data);
  });
}
