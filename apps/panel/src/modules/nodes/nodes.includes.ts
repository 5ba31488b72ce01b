import type { Node } from '../../db/types.ts';
import type { IncludedServers } from '../application/included-servers.ts';
import { Includes, NULL_RESOURCE, relItem, relList, withRelationships } from '../application/includes.ts';
import { locationAttributes } from '../locations/locations.presenter.ts';
import type { LocationsRepository } from '../locations/locations.repository.ts';
import { allocationAttributes } from './allocations.presenter.ts';
import type { AllocationsRepository } from './allocations.repository.ts';
import { nodeAttributes } from './nodes.presenter.ts';
import type { NodesRepository } from './nodes.repository.ts';

export interface NodeIncludeSources {
  nodes: NodesRepository;
  allocations: AllocationsRepository;
  locations: LocationsRepository;
  includedServers: IncludedServers;
}

/**
 * Nodes as application objects with the requested includes (`allocations`, `location`, `servers`),
 * loaded with one query per include for the whole page.
 */
export async function presentNodes(src: NodeIncludeSources, nodes: Node[], inc: Includes) {
  const ids = nodes.map((n) => n.id);
  const allocated = await src.nodes.allocated(ids);
  const wantAllocations = inc.want('allocations', 'r_allocations');
  const wantLocation = inc.want('location', 'r_locations');
  const allocations = wantAllocations === 'yes' ? await src.allocations.forNodes(ids) : [];
  const locations =
    wantLocation === 'yes'
      ? await src.locations.findByIds([...new Set(nodes.map((n) => n.location_id))])
      : [];
  const servers = await src.includedServers.lists(inc, 'node_id', ids);
  return nodes.map((n) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantAllocations !== 'no') {
      rel.allocations =
        wantAllocations === 'denied'
          ? NULL_RESOURCE
          : relList('allocation', allocations.filter((a) => a.node_id === n.id).map(allocationAttributes));
    }
    if (wantLocation !== 'no') {
      const location = locations.find((l) => l.id === n.location_id);
      rel.location =
        wantLocation === 'denied' || !location
          ? NULL_RESOURCE
          : relItem('location', locationAttributes(location));
    }
    const nodeServers = servers?.get(n.id);
    if (nodeServers) rel.servers = nodeServers;
    return withRelationships(nodeAttributes(n, allocated.get(n.id) ?? { memory: 0, disk: 0 }), rel);
  });
}
