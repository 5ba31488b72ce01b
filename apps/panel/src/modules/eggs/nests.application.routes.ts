import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatEggError } from '@talon/shared';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list, paginated, requestUrl } from '../../http/envelope.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { listParams, type ListSpec } from '../application/listing.ts';
import { pathId, resourceMeta } from '../application/urls.ts';
import { applicationEggRoutes } from './eggs.application.routes.ts';
import { presentEggs, presentNests } from './eggs.includes.ts';
import { EggImportError } from './eggs.service.ts';
import { NestsService } from './nests.service.ts';

type NestRoute = { Params: { nest: string } };

/** The most bytes an egg import request may carry: the largest egg text (256 KiB) escaped as JSON. */
export const EGG_IMPORT_BODY_LIMIT = 1024 * 1024;
type EggRoute = { Params: { nest: string; egg: string } };

// The reference's nest list has no filters or sorts; `search` (name, description) is our extension.
const LIST: ListSpec = { filters: {}, sorts: {}, search: ['name', 'description'] };

/**
 * An import body is the egg file itself (JSON, or text: JSON or YAML), or `{ egg: <file text or
 * object> }` as the admin screen sends it. A real egg file always has `meta`, so a body with `egg`
 * and no `meta` is the wrapper.
 */
export function importedFile(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'egg' in body && !('meta' in body))
    return body.egg;
  return body;
}

/** /api/application/nests and their eggs (reference §5.7), with our write extensions (docs/api.md). */
export function applicationNestRoutes(app: FastifyInstance, ctx: AppContext) {
  const repo = ctx.repositories.eggs;
  const nests = new NestsService(repo, ctx.services.activity);
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  const includesOf = (req: FastifyRequest) =>
    Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
  const presentNest = async (req: FastifyRequest, nest: Awaited<ReturnType<typeof nests.get>>) =>
    (await presentNests(sources, [nest], includesOf(req)))[0];

  const nestOf = (id: string) => nests.get(pathId(id));

  app.get('/api/application/nests', acl('r_nests'), async (req) => {
    const params = listParams(req.query as Record<string, unknown>, LIST);
    const { rows, total } = await nests.list(params);
    const data = await presentNests(sources, rows, includesOf(req));
    return paginated('nest', data, total, params.page, requestUrl(req), false);
  });

  app.get<NestRoute>('/api/application/nests/:nest', acl('r_nests'), async (req) =>
    item('nest', await presentNest(req, await nestOf(req.params.nest))),
  );

  app.post('/api/application/nests', acl('r_nests'), async (req, reply) => {
    const nest = await nests.create(req.body, activityActor(req));
    return reply
      .code(201)
      .send(
        item('nest', await presentNest(req, nest), resourceMeta(req, `/api/application/nests/${nest.id}`)),
      );
  });

  app.patch<NestRoute>('/api/application/nests/:nest', acl('r_nests'), async (req) =>
    item(
      'nest',
      await presentNest(req, await nests.update(pathId(req.params.nest), req.body, activityActor(req))),
    ),
  );

  app.delete<NestRoute>('/api/application/nests/:nest', acl('r_nests'), async (req, reply) => {
    await nests.delete(pathId(req.params.nest), activityActor(req));
    return reply.code(204).send();
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
   * egg file, as JSON or as text (JSON or YAML, `Content-Type: text/plain`), or `{ egg: … }`
   * ({@link importedFile}). An egg of the same uuid or name in the nest is updated in place. 200 with
   * the egg and `meta` { action, matched, warnings }; 422 with one error per problem (`source_field` =
   * the path in the file).
   */
  // rawStrings: a file sent as a JSON object keeps its install script byte for byte (app.ts).
  // bodyLimit: a body over 1 MiB is refused (413) before it is read; file text over the egg cap
  // (EGG_FILE_MAX_CHARS) gets a 422 in words from the parser's limits (issue 23).
  const importOptions = {
    config: { ...acl('r_eggs').config, rawStrings: true },
    bodyLimit: EGG_IMPORT_BODY_LIMIT,
  };
  app.post<NestRoute>('/api/application/nests/:nest/eggs/import', importOptions, async (req) => {
    const nest = await nestOf(req.params.nest);
    let outcome;
    try {
      outcome = await ctx.services.eggs.importFile(importedFile(req.body), nest.id);
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

  applicationEggRoutes(app, ctx, nestOf);
}
