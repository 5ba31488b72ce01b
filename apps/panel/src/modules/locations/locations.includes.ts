import type { Location } from '../../db/types.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import { NULL_RESOURCE, relList, withRelationships, type Includes } from '../application/includes.ts';
import { presentNodes } from '../nodes/nodes.includes.ts';
import { locationAttributes } from './locations.presenter.ts';

/**
 * Locations as application objects with the requested includes (`nodes`, `servers`; reference
 * §5.1), loaded with one query per include for the whole page; included nodes and servers get the
 * includes requested below their name (`nodes.allocations`, `servers.egg`).
 */
export async function presentLocations(src: IncludeSources, rows: Location[], inc: Includes) {
  const ids = rows.map((l) => l.id);
  const wantNodes = inc.want('nodes', 'r_nodes');
  const nodes =
    wantNodes === 'yes' ? await presentNodes(src, await src.nodes.inLocations(ids), inc.below('nodes')) : [];
  const servers = await src.includedServers.lists(inc, 'location_id', ids);
  return rows.map((l) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantNodes !== 'no') {
      rel.nodes =
        wantNodes === 'denied'
          ? NULL_RESOURCE
          : relList(
              'node',
              nodes.filter((n) => n.location_id === l.id),
            );
    }
    const locationServers = servers?.get(l.id);
    if (locationServers) rel.servers = locationServers;
    return withRelationships(locationAttributes(l), rel);
  });
}
