import type {
  NodeHealth as WireNodeHealth,
  NodeSetupToken as WireNodeSetupToken,
} from '@talon/shared/admin/node-wire';
import { http } from '../http.ts';
import {
  APP,
  deleteItem,
  getItem,
  getPage,
  itemPath,
  relationItem,
  requestApp,
  sendItem,
  toAllocation,
  type Allocation,
  type ListQuery,
  type Page,
  type WireAllocation,
  type WireRelationships,
} from './http.ts';

/** Application `node` (reference §5.1; daemon token fields are never sent). */
export interface WireNode extends WireRelationships {
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
  /** The location's short code when asked with include=location. */
  locationShort: string | null;
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
    locationShort: relationItem<{ short: string }>(wire, 'location')?.short ?? null,
  };
}

/** Sorts: name (extension), id, memory, disk; `search` over name and fqdn. */
export function listNodes(query: ListQuery = {}): Promise<Page<AdminNode>> {
  return getPage('/nodes', query, toAdminNode);
}

export function getNode(id: number | string): Promise<AdminNode> {
  return getItem(itemPath('/nodes', id), toAdminNode);
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
  /** How the node runs servers (`process` or `docker`, its confinement, the containers' network); null when unknown. */
  runtime: { driver: string; confinement: string | null; network: string | null } | null;
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
    runtime: wire.runtime ?? null,
    error: wire.error,
    checkedAt: wire.checked_at,
  };
}

export function getNodeHealth(id: number | string): Promise<NodeHealth> {
  return getItem(`${itemPath('/nodes', id)}/health`, toNodeHealth);
}

/** Extension: whether the panel configures and starts this node's daemon itself (the embedded local node). */
export function getNodeSetup(id: number | string): Promise<{ embedded: boolean }> {
  return getItem(`${itemPath('/nodes', id)}/setup`, (wire: { embedded: boolean }) => ({
    embedded: wire.embedded,
  }));
}

/** Create/update body (reference §5.3 + extension `description`); numbers in MiB / ports. */
export type NodeInput = Omit<
  WireNode,
  'id' | 'uuid' | 'scheme' | 'created_at' | 'updated_at' | 'allocated_resources' | 'relationships'
> & { scheme: 'http' | 'https' };

export function createNode(input: NodeInput): Promise<AdminNode> {
  return sendItem('POST', '/nodes', input, toAdminNode);
}

/**
 * PATCH re-validates every required field, so the whole input is sent. `resetSecret` makes the
 * panel issue a new daemon token (the daemon must then be configured again).
 */
export function updateNode(id: number, input: NodeInput, resetSecret = false): Promise<AdminNode> {
  return sendItem(
    'PATCH',
    `/nodes/${id}`,
    resetSecret ? { ...input, reset_secret: true } : input,
    toAdminNode,
  );
}

/** The input that saves a node as it is (for "reset the secret" without other changes). */
export function nodeInputOf(node: AdminNode): NodeInput {
  return {
    name: node.name,
    description: node.description,
    location_id: node.locationId,
    fqdn: node.fqdn,
    scheme: node.scheme === 'http' ? 'http' : 'https',
    behind_proxy: node.behindProxy,
    public: node.public,
    maintenance_mode: node.maintenanceMode,
    memory: node.memory,
    memory_overallocate: node.memoryOverallocate,
    disk: node.disk,
    disk_overallocate: node.diskOverallocate,
    upload_size: node.uploadSize,
    daemon_listen: node.daemonListen,
    daemon_sftp: node.daemonSftp,
    daemon_base: node.daemonBase,
  };
}

/** 400 HasActiveServersException while servers are on the node. */
export function deleteNode(id: number): Promise<void> {
  return deleteItem(`/nodes/${id}`);
}

/** The daemon's configuration document (raw JSON, not an envelope; it holds the node's secret). */
export async function getNodeConfiguration(id: number): Promise<Record<string, unknown>> {
  const { data } = await http.get<Record<string, unknown>>(`${APP}/nodes/${id}/configuration`);
  return data;
}

/** Extension, session only: a 15-minute, single-use token and the command that redeems it. */
export interface NodeSetupToken {
  token: string;
  expiresAt: string;
  command: string;
}

export function createNodeSetupToken(id: number): Promise<NodeSetupToken> {
  return sendItem('POST', `/nodes/${id}/setup-token`, {}, (wire: WireNodeSetupToken) => ({
    token: wire.token,
    expiresAt: wire.expires_at,
    command: wire.command,
  }));
}

/** Application `allocation` (reference §5.1) with include=server. */
export interface WireNodeAllocation extends WireAllocation, WireRelationships {}

export interface NodeAllocation extends Allocation {
  /** The server using it (include=server), null when free or not visible. */
  server: { id: number; name: string } | null;
}

export function toNodeAllocation(wire: WireNodeAllocation): NodeAllocation {
  const server = relationItem<{ id: number; name: string }>(wire, 'server');
  return { ...toAllocation(wire), server: server ? { id: server.id, name: server.name } : null };
}

/**
 * A node's allocations. Filters: `ip` and `port` exact, `ip_alias` partial, `server_id`
 * ('false' = only the free ones, as the reference reads any non-number).
 */
export function listNodeAllocations(nodeId: number, query: ListQuery = {}): Promise<Page<NodeAllocation>> {
  return getPage(`/nodes/${nodeId}/allocations`, { ...query, include: ['server'] }, toNodeAllocation);
}

export interface AllocationInput {
  /** An IPv4/IPv6 address, an IPv4 block /25–/32, or a hostname. */
  ip: string;
  alias: string | null;
  /** `"25565"` or `"25565-25600"` each. */
  ports: string[];
}

/** 204; existing ip/port pairs are skipped. Bad addresses or ports → 400 with the precise reason. */
export async function createNodeAllocations(nodeId: number, input: AllocationInput): Promise<void> {
  await requestApp('POST', `/nodes/${nodeId}/allocations`, input);
}

/** Extension: alias and notes (null clears). */
export function updateNodeAllocation(
  nodeId: number,
  allocationId: number,
  changes: { alias?: string | null; notes?: string | null },
): Promise<NodeAllocation> {
  return sendItem(
    'PATCH',
    `/nodes/${nodeId}/allocations/${allocationId}?include=server`,
    changes,
    toNodeAllocation,
  );
}

/** 400 ServerUsingAllocationException while a server uses it. */
export function deleteNodeAllocation(nodeId: number, allocationId: number): Promise<void> {
  return deleteItem(`/nodes/${nodeId}/allocations/${allocationId}`);
}
