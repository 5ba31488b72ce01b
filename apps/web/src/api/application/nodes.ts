import type { NodeHealth as WireNodeHealth } from '@talon/shared/admin/node-wire';
import { getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `node` (reference §5.1; daemon token fields are never sent). */
export interface WireNode {
  id: number;
  uuid: string;
  public: boolean;
  name: string;
  description: string | null;
  location_id: number;
  fqdn: string;
  scheme: string;
  behind_proxy: boolean;
  maintenance_mode: boolean;
  memory: number;
  memory_overallocate: number;
  disk: number;
  disk_overallocate: number;
  upload_size: number;
  daemon_listen: number;
  daemon_sftp: number;
  daemon_base: string;
  created_at: string;
  updated_at: string | null;
  allocated_resources?: { memory: number; disk: number };
}

export interface AdminNode {
  id: number;
  uuid: string;
  public: boolean;
  name: string;
  description: string | null;
  locationId: number;
  fqdn: string;
  scheme: string;
  behindProxy: boolean;
  maintenanceMode: boolean;
  /** MiB */
  memory: number;
  memoryOverallocate: number;
  /** MiB */
  disk: number;
  diskOverallocate: number;
  uploadSize: number;
  daemonListen: number;
  daemonSftp: number;
  daemonBase: string;
  createdAt: string;
  /** Sums over the node's servers, MiB. */
  allocated: { memory: number; disk: number };
}

export function toAdminNode(wire: WireNode): AdminNode {
  return {
    id: wire.id,
    uuid: wire.uuid,
    public: wire.public,
    name: wire.name,
    description: wire.description,
    locationId: wire.location_id,
    fqdn: wire.fqdn,
    scheme: wire.scheme,
    behindProxy: wire.behind_proxy,
    maintenanceMode: wire.maintenance_mode,
    memory: wire.memory,
    memoryOverallocate: wire.memory_overallocate,
    disk: wire.disk,
    diskOverallocate: wire.disk_overallocate,
    uploadSize: wire.upload_size,
    daemonListen: wire.daemon_listen,
    daemonSftp: wire.daemon_sftp,
    daemonBase: wire.daemon_base,
    createdAt: wire.created_at,
    allocated: wire.allocated_resources ?? { memory: 0, disk: 0 },
  };
}

export function listNodes(query: ListQuery = {}): Promise<Page<AdminNode>> {
  return getPage('/nodes', query, toAdminNode);
}

export function getNode(id: number | string): Promise<AdminNode> {
  return getItem(`/nodes/${encodeURIComponent(String(id))}`, toAdminNode);
}

/** Extension (docs/api.md "Nodes"): the daemon's system information, 3 s timeout. */
export interface NodeHealth {
  reachable: boolean;
  version: string | null;
  architecture: string | null;
  cpuCount: number | null;
  kernelVersion: string | null;
  os: string | null;
  /** Bytes. */
  memoryTotal: number | null;
  error: string | null;
  checkedAt: string;
}

export function toNodeHealth(wire: WireNodeHealth): NodeHealth {
  return {
    reachable: wire.reachable,
    version: wire.version,
    architecture: wire.architecture,
    cpuCount: wire.cpu_count,
    kernelVersion: wire.kernel_version,
    os: wire.os,
    memoryTotal: wire.memory?.total ?? null,
    error: wire.error,
    checkedAt: wire.checked_at,
  };
}

export function getNodeHealth(id: number | string): Promise<NodeHealth> {
  return getItem(`/nodes/${encodeURIComponent(String(id))}/health`, toNodeHealth);
}
