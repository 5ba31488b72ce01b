import type { Node } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';

export interface AllocatedResources {
  memory: number;
  disk: number;
}

/**
 * The application API's `node` object (reference §5.1). Fields are picked one by one: the daemon
 * token and its id never leave through this presenter.
 */
export function nodeAttributes(n: Node, allocated: AllocatedResources) {
  return {
    id: n.id,
    uuid: n.uuid,
    public: n.public === 1,
    name: n.name,
    description: n.description,
    location_id: n.location_id,
    fqdn: n.fqdn,
    scheme: n.scheme,
    behind_proxy: n.behind_proxy === 1,
    maintenance_mode: n.maintenance_mode === 1,
    memory: n.memory,
    memory_overallocate: n.memory_overallocate,
    disk: n.disk,
    disk_overallocate: n.disk_overallocate,
    upload_size: n.upload_size,
    daemon_listen: n.daemon_listen,
    daemon_sftp: n.daemon_sftp,
    daemon_base: n.daemon_base,
    created_at: atom(n.created_at),
    updated_at: atom(n.updated_at),
    allocated_resources: { memory: allocated.memory, disk: allocated.disk },
  };
}
