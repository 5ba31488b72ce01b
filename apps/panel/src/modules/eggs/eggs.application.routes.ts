import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Egg, Nest } from '../../db/types.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { Includes } from '../application/includes.ts';
import { pathId, resourceMeta } from '../application/urls.ts';
import { EggEditService, exportFileName } from './egg-edit.service.ts';
import { EggVariablesService } from './egg-variables.service.ts';
import { presentEggs } from './eggs.includes.ts';
import { eggVariableAttributes } from './eggs.presenter.ts';

type EggRoute = { Params: { nest: string; egg: string } };
type VariableRoute = { Params: { nest: string; egg: string; variable: string } };

const EGG = '/api/application/nests/:nest/eggs/:egg';

/**
 * Our extensions for the admin screens (docs/api.md): edit, delete and export an egg, and its
 * variables. The reference's egg routes are read-only.
 */
export function applicationEggRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  nestOf: (id: string) => Promise<Nest>,
) {
  const eggs = new EggEditService(ctx.repositories.eggs, ctx.services.activity);
  const variables = new EggVariablesService(ctx.repositories.eggs, ctx.services.activity);
  const sources = { ...ctx.repositories, includedServers: ctx.services.includedServers };
  const declared = acl('r_eggs');

  const eggOf = async (params: EggRoute['Params']): Promise<Egg> =>
    eggs.get((await nestOf(params.nest)).id, pathId(params.egg));
  const presentEgg = async (req: FastifyRequest, egg: Egg) => {
    const includes = Includes.fromQuery(req.query as Record<string, unknown>, requireActor(req));
    return item('egg', (await presentEggs(sources, [egg], includes))[0]);
  };

  // Strings are kept as sent (no trimming, app.ts): an install script's last newline or CRLF is part of it.
  const untrimmed = { config: { ...declared.config, rawStrings: true } };
  app.patch<EggRoute>(EGG, untrimmed, async (req) =>
    presentEgg(req, await eggs.update(await eggOf(req.params), req.body, activityActor(req))),
  );

  app.delete<EggRoute>(EGG, declared, async (req, reply) => {
    await eggs.delete(await eggOf(req.params), activityActor(req));
    return reply.code(204).send();
  });

  /** The PTDL_v2 file itself (not an envelope), offered as a download. */
  app.get<EggRoute>(`${EGG}/export`, declared, async (req, reply) => {
    const egg = await eggOf(req.params);
    return reply
      .header('content-disposition', `attachment; filename="${exportFileName(egg.name)}"`)
      .type('application/json; charset=utf-8')
      .send(`${JSON.stringify(await eggs.export(egg), null, 4)}\n`);
  });

  app.get<EggRoute>(`${EGG}/variables`, declared, async (req) =>
    list('egg_variable', (await variables.list(await eggOf(req.params))).map(eggVariableAttributes)),
  );

  app.post<EggRoute>(`${EGG}/variables`, declared, async (req, reply) => {
    const egg = await eggOf(req.params);
    const created = await variables.create(egg, req.body, activityActor(req));
    const url = `/api/application/nests/${egg.nest_id}/eggs/${egg.id}/variables/${created.id}`;
    return reply.code(201).send(item('egg_variable', eggVariableAttributes(created), resourceMeta(req, url)));
  });

  app.patch<VariableRoute>(`${EGG}/variables/:variable`, declared, async (req) => {
    const egg = await eggOf(req.params);
    const updated = await variables.update(egg, pathId(req.params.variable), req.body, activityActor(req));
    return item('egg_variable', eggVariableAttributes(updated));
  });

  app.delete<VariableRoute>(`${EGG}/variables/:variable`, declared, async (req, reply) => {
    const egg = await eggOf(req.params);
    await variables.delete(egg, pathId(req.params.variable), activityActor(req));
    return reply.code(204).send();
  });
}
