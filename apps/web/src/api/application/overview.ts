import type { AdminOverview as WireOverview } from '@talon/shared/admin/overview-wire';
import { getItem } from './http.ts';

/** The admin overview's summary (docs/api.md "Overview", session only). */
export interface Overview {
  version: string;
  counts: {
    users: number;
    servers: number;
    nodes: number;
    locations: number;
    nests: number;
    eggs: number;
    databaseHosts: number;
  };
  firstSteps: { nodeReady: boolean; eggAvailable: boolean; serverCreated: boolean; userInvited: boolean };
}

export function toOverview(wire: WireOverview): Overview {
  return {
    version: wire.version,
    counts: {
      users: wire.counts.users,
      servers: wire.counts.servers,
      nodes: wire.counts.nodes,
      locations: wire.counts.locations,
      nests: wire.counts.nests,
      eggs: wire.counts.eggs,
      databaseHosts: wire.counts.database_hosts,
    },
    firstSteps: {
      nodeReady: wire.first_steps.node_ready,
      eggAvailable: wire.first_steps.egg_available,
      serverCreated: wire.first_steps.server_created,
      userInvited: wire.first_steps.user_invited,
    },
  };
}

export function getOverview(): Promise<Overview> {
  return getItem('/overview', toOverview);
}
