import type { Node } from '../../db/types.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import {
  NULL_RESOURCE,
  relItem,
  relList,
  withRelationships,
  type Includes,
} from '../application/includes.ts';
import { presentLocations } from '../locations/locations.includes.ts';
import { presentAllocations } from './allocations.includes.ts';
import { nodeAttributes } from './nodes.presenter.ts';

/**
 * Nodes as application objects with the requested includes (`allocations`, `location`, `servers`),
 * loaded with one query per include for the whole page; included objects get the includes
 * requested below their name (`location.nodes`, `allocations.server`).
 */
export async function presentNodes(src: IncludeSources, nodes: Node[], inc: Includes) {
  const ids = nodes.map((n) => n.id);
  const allocated = await src.nodes.allocated(ids);
  const wantAllocations = inc.want('allocations', 'r_allocations');
  const wantLocation = inc.want('location', 'r_locations');
  const allocationRows = wantAllocations === 'yes' ? await src.allocations.forNodes(ids) : [];
  const allocations = await presentAllocations(src, allocationRows, inc.below('allocations'));
  const locations =
    wantLocation === 'yes'
      ? await presentLocations(
          src,
          await src.locations.findByIds([...new Set(nodes.map((n) => n.location_id))]),
          inc.below('location'),
        )
      : [];
  const servers = await src.includedServers.lists(inc, 'node_id', ids);
  return nodes.map((n) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantAllocations !== 'no') {
      rel.allocations =
        wantAllocations === 'denied'
          ? NULL_RESOURCE
          : relList(
              'allocation',
              allocations.filter((_, i) => allocationRows[i]!.node_id === n.id),
            );
    }
    if (wantLocation !== 'no') {
      const location = locations.find((l) => l.id === n.location_id);
      rel.location = wantLocation === 'denied' || !location ? NULL_RESOURCE : relItem('location', location);
    }
    const nodeServers = servers?.get(n.id);
    if (nodeServers) rel.servers = nodeServers;
    return withRelationships(nodeAttributes(n, allocated.get(n.id) ?? { memory: 0, disk: 0 }), rel);
  });
}
