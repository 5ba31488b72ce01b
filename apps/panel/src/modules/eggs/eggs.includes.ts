import type { Egg, Nest } from '../../db/types.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import {
  NULL_RESOURCE,
  relItem,
  relList,
  withRelationships,
  type Includes,
} from '../application/includes.ts';
import {
  eggAttributes,
  eggVariableAttributes,
  inheritedConfig,
  inheritedScript,
  nestAttributes,
} from './eggs.presenter.ts';

/**
 * Eggs as application objects with the `variables`, `nest`, `servers`, `config` and `script`
 * includes (reference §5.1), loaded
 * with one query per include for the whole page; an included nest gets the includes requested
 * below it (`nest.eggs`).
 */
export async function presentEggs(src: IncludeSources, eggs: Egg[], inc: Includes) {
  const wantVariables = inc.want('variables', 'r_eggs');
  const wantNest = inc.want('nest', 'r_nests');
  // `config` and `script` need no ACL; they only exist for eggs that copy them from another egg.
  const wantConfig = inc.want('config', null);
  const wantScript = inc.want('script', null);
  const parentIds = [
    ...(wantConfig === 'yes' ? eggs.map((e) => e.config_from) : []),
    ...(wantScript === 'yes' ? eggs.map((e) => e.copy_script_from) : []),
  ].filter((id): id is number => id !== null);
  const parents = new Map((await src.eggs.findEggs([...new Set(parentIds)])).map((p) => [p.id, p]));
  const servers = await src.includedServers.lists(
    inc,
    'egg_id',
    eggs.map((e) => e.id),
  );
  const variables = wantVariables === 'yes' ? await src.eggs.variablesOfEggs(eggs.map((e) => e.id)) : [];
  const nests =
    wantNest === 'yes'
      ? await presentNests(
          src,
          await src.eggs.findNests([...new Set(eggs.map((e) => e.nest_id))]),
          inc.below('nest'),
        )
      : [];
  return eggs.map((e) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantVariables !== 'no') {
      rel.variables =
        wantVariables === 'denied'
          ? NULL_RESOURCE
          : relList('egg_variable', variables.filter((v) => v.egg_id === e.id).map(eggVariableAttributes));
    }
    if (wantNest !== 'no') {
      const nest = nests.find((n) => n.id === e.nest_id);
      rel.nest = nest ? relItem('nest', nest) : NULL_RESOURCE;
    }
    const eggServers = servers?.get(e.id);
    if (eggServers) rel.servers = eggServers;
    if (wantConfig !== 'no') {
      const config = inheritedConfig(e, parents.get(e.config_from ?? -1));
      rel.config = config ? relItem(null, config) : NULL_RESOURCE;
    }
    if (wantScript !== 'no') {
      const script = inheritedScript(e, parents.get(e.copy_script_from ?? -1));
      rel.script = script ? relItem(null, script) : NULL_RESOURCE;
    }
    return withRelationships(eggAttributes(e), rel);
  });
}

/**
 * Nests as application objects with the `eggs` include, loaded with one query for the whole page;
 * included eggs get the includes requested below it (`eggs.variables`).
 */
export async function presentNests(src: IncludeSources, nests: Nest[], inc: Includes) {
  const wantEggs = inc.want('eggs', 'r_eggs');
  const eggRows = wantEggs === 'yes' ? await src.eggs.eggsOfNests(nests.map((n) => n.id)) : [];
  const eggs = await presentEggs(src, eggRows, inc.below('eggs'));
  const servers = await src.includedServers.lists(
    inc,
    'nest_id',
    nests.map((n) => n.id),
  );
  return nests.map((n) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantEggs !== 'no') {
      rel.eggs =
        wantEggs === 'denied'
          ? NULL_RESOURCE
          : relList(
              'egg',
              eggs.filter((e) => e.nest === n.id),
            );
    }
    const nestServers = servers?.get(n.id);
    if (nestServers) rel.servers = nestServers;
    return withRelationships(nestAttributes(n), rel);
  });
}
