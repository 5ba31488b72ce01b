import { getItem, getPage, relationItem, type ListQuery, type Page, type WireRelationships } from './http.ts';
import { toAdminUser, type AdminUser, type WireAdminUser } from './users.ts';
import { toAdminNode, type AdminNode, type WireNode } from './nodes.ts';

/** Application `server` (reference §5.1). */
export interface WireAdminServer extends WireRelationships {
  id: number;
  external_id: string | null;
  uuid: string;
  identifier: string;
  name: string;
  description: string;
  status: string | null;
  suspended: boolean;
  limits: {
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    oom_disabled: boolean;
  };
  feature_limits: { databases: number | null; allocations: number | null; backups: number | null };
  user: number;
  node: number;
  allocation: number;
  nest: number;
  egg: number;
  container: {
    startup_command: string;
    image: string;
    installed: number;
    environment: Record<string, string | number | null>;
  };
  created_at: string;
  updated_at: string | null;
}

export interface AdminServer {
  id: number;
  externalId: string | null;
  uuid: string;
  identifier: string;
  name: string;
  description: string;
  status: string | null;
  suspended: boolean;
  limits: {
    memory: number;
    swap: number;
    disk: number;
    io: number;
    cpu: number;
    threads: string | null;
    oomDisabled: boolean;
  };
  featureLimits: { databases: number | null; allocations: number | null; backups: number | null };
  userId: number;
  nodeId: number;
  allocationId: number;
  nestId: number;
  eggId: number;
  container: {
    startupCommand: string;
    image: string;
    installed: boolean;
    environment: Record<string, string | number | null>;
  };
  createdAt: string;
  /** Filled when the list/item was asked with include=user / include=node. */
  owner: AdminUser | null;
  nodeItem: AdminNode | null;
}

export function toAdminServer(wire: WireAdminServer): AdminServer {
  const owner = relationItem<WireAdminUser>(wire, 'user');
  const node = relationItem<WireNode>(wire, 'node');
  return {
    id: wire.id,
    externalId: wire.external_id,
    uuid: wire.uuid,
    identifier: wire.identifier,
    name: wire.name,
    description: wire.description,
    status: wire.status,
    suspended: wire.suspended,
    limits: {
      memory: wire.limits.memory,
      swap: wire.limits.swap,
      disk: wire.limits.disk,
      io: wire.limits.io,
      cpu: wire.limits.cpu,
      threads: wire.limits.threads,
      oomDisabled: wire.limits.oom_disabled,
    },
    featureLimits: wire.feature_limits,
    userId: wire.user,
    nodeId: wire.node,
    allocationId: wire.allocation,
    nestId: wire.nest,
    eggId: wire.egg,
    container: {
      startupCommand: wire.container.startup_command,
      image: wire.container.image,
      installed: Boolean(wire.container.installed),
      environment: wire.container.environment,
    },
    createdAt: wire.created_at,
    owner: owner ? toAdminUser(owner) : null,
    nodeItem: node ? toAdminNode(node) : null,
  };
}

/** Filters (extension): owner_id, node_id, status; sorts: name, created_at. */
export function listServers(query: ListQuery = {}): Promise<Page<AdminServer>> {
  return getPage('/servers', query, toAdminServer);
}

export function getServer(id: number | string, include: string[] = []): Promise<AdminServer> {
  return getItem(`/servers/${encodeURIComponent(String(id))}`, toAdminServer, include);
}
