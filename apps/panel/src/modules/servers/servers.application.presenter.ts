import type { Server } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';
import { variableEnvironment } from './server-config.ts';
import type { ServerBundle } from './servers.repository.ts';

/** The application API `server` object (reference §5.1); timestamps in UTC. */
export function applicationServerAttributes(b: ServerBundle) {
  const s: Server = b.server;
  return {
    id: s.id,
    external_id: s.external_id,
    uuid: s.uuid,
    identifier: s.uuid_short,
    name: s.name,
    description: s.description,
    status: s.status,
    suspended: s.status === 'suspended',
    limits: {
      memory: s.memory,
      swap: s.swap,
      disk: s.disk,
      io: s.io,
      cpu: s.cpu,
      threads: s.threads,
      oom_disabled: s.oom_disabled === 1,
    },
    feature_limits: { databases: s.database_limit, allocations: s.allocation_limit, backups: s.backup_limit },
    user: s.owner_id,
    node: s.node_id,
    allocation: s.allocation_id,
    nest: s.nest_id,
    egg: s.egg_id,
    container: {
      startup_command: s.startup,
      image: s.image,
      installed: s.installed_at && s.status !== 'installing' ? 1 : 0,
      environment: {
        ...variableEnvironment(b),
        STARTUP: s.startup,
        P_SERVER_LOCATION: b.location.short,
        P_SERVER_UUID: s.uuid,
        P_SERVER_ALLOCATION_LIMIT: s.allocation_limit,
      },
    },
    updated_at: atom(s.updated_at),
    created_at: atom(s.created_at),
  };
}
