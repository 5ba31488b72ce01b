import type { Allocation } from '../../db/types.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import { NULL_RESOURCE, relItem, withRelationships, type Includes } from '../application/includes.ts';
import { allocationAttributes } from './allocations.presenter.ts';
import { presentNodes } from './nodes.includes.ts';

/**
 * Allocations as application objects with the requested includes (`node`, `server`; reference
 * §5.1), loaded with one query per include for the whole page.
 */
export async function presentAllocations(src: IncludeSources, rows: Allocation[], inc: Includes) {
  const wantNode = inc.want('node', 'r_nodes');
  const nodes =
    wantNode === 'yes'
      ? await presentNodes(
          src,
          await src.nodes.findByIds([...new Set(rows.map((a) => a.node_id))]),
          inc.below('node'),
        )
      : [];
  const servers = await src.includedServers.single(
    inc,
    rows.map((a) => a.server_id),
  );
  return rows.map((a) => {
    const rel: Parameters<typeof withRelationships>[1] = {};
    if (wantNode !== 'no') {
      const node = nodes.find((n) => n.id === a.node_id);
      rel.node = node ? relItem('node', node) : NULL_RESOURCE;
    }
    if (servers) rel.server = (a.server_id !== null && servers.get(a.server_id)) || NULL_RESOURCE;
    return withRelationships(allocationAttributes(a), rel);
  });
}
