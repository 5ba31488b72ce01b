import type { ClientServerResources } from '@talon/shared/client/server-wire';
import { http } from './http.ts';
import type { Paginated } from './types.ts';

/** An allocation of a server (spec 000 §3, 001 §3). */
export interface ServerAllocation {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  isDefault: boolean;
}

export interface ServerLimits {
  cpu: number;
  memory: number;
  disk: number;
}

/** Server summary for the dashboard and the search (spec 000 §3). */
export interface ServerSummary {
  id: string;
  internalId: number;
  uuid: string;
  name: string;
  description: string;
  node: string;
  status: string | null;
  isTransferring: boolean;
  limits: ServerLimits;
  allocations: ServerAllocation[];
}

/** The full server (spec 001 §3). */
export interface Server extends ServerSummary {
  invocation: string;
  dockerImage: string;
  sftp: { ip: string; port: number };
  descriptionOrNull: string | null;
  eggFeatures: string[];
  featureLimits: { databases: number; backups: number; allocations: number };
  isInstalling: boolean;
}

export interface ServerResponse {
  server: Server;
  isOwner: boolean;
  permissions: string[];
}

export interface ServerResources {
  state: string;
  isSuspended: boolean;
  memoryBytes: number;
  cpuAbsolute: number;
  diskBytes: number;
  rxBytes: number;
  txBytes: number;
  /** Milliseconds, as the daemon reports it. */
  uptime: number;
}

interface WireAllocation {
  id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  is_default: boolean;
}

export interface WireServer {
  identifier: string;
  internal_id: number;
  uuid: string;
  name: string;
  description: string | null;
  node: string;
  status: string | null;
  is_transferring?: boolean;
  invocation?: string;
  docker_image?: string;
  sftp_details?: { ip: string; port: number };
  limits?: Partial<ServerLimits>;
  egg_features?: string[] | null;
  feature_limits?: { databases: number; backups: number; allocations: number };
  relationships?: { allocations?: { data: { attributes: WireAllocation }[] } };
}

interface WireList {
  data: { attributes: WireServer }[];
  meta?: { pagination?: { current_page: number; total_pages: number; total: number } };
}

function toAllocation(a: WireAllocation): ServerAllocation {
  return { id: a.id, ip: a.ip, alias: a.ip_alias ?? null, port: a.port, isDefault: a.is_default };
}

export function toServer(a: WireServer): Server {
  const status = a.status ?? null;
  return {
    id: a.identifier,
    internalId: a.internal_id,
    uuid: a.uuid,
    name: a.name,
    description: a.description ?? '',
    descriptionOrNull: a.description || null,
    node: a.node,
    status,
    isTransferring: a.is_transferring ?? false,
    limits: { cpu: a.limits?.cpu ?? 0, memory: a.limits?.memory ?? 0, disk: a.limits?.disk ?? 0 },
    allocations: (a.relationships?.allocations?.data ?? []).map((d) => toAllocation(d.attributes)),
    invocation: a.invocation ?? '',
    dockerImage: a.docker_image ?? '',
    sftp: a.sftp_details ?? { ip: '', port: 0 },
    eggFeatures: a.egg_features ?? [],
    featureLimits: a.feature_limits ?? { databases: 0, backups: 0, allocations: 0 },
    isInstalling: status === 'installing' || status === 'install_failed',
  };
}

export type ServerListType = 'owner' | 'admin' | 'admin-all' | undefined;

export async function getServers(
  page = 1,
  options: { type?: ServerListType; query?: string; perPage?: number } = {},
): Promise<Paginated<Server>> {
  const { data } = await http.get<WireList>('/api/client', {
    params: {
      page,
      per_page: options.perPage,
      type: options.type,
      'filter[*]': options.query,
    },
  });
  const p = data.meta?.pagination;
  return {
    items: data.data.map(({ attributes }) => toServer(attributes)),
    pagination: { currentPage: p?.current_page ?? 1, totalPages: p?.total_pages ?? 1, total: p?.total ?? 0 },
  };
}

export async function getServer(id: string): Promise<ServerResponse> {
  const { data } = await http.get<{
    attributes: WireServer;
    meta?: { is_server_owner?: boolean; user_permissions?: string[] };
  }>(`/api/client/servers/${id}`);
  const isOwner = data.meta?.is_server_owner ?? false;
  return {
    server: toServer(data.attributes),
    isOwner,
    // Owners hold everything (spec 001 §6); others get the list from the metadata.
    permissions: isOwner ? ['*'] : (data.meta?.user_permissions ?? []),
  };
}

/** Read leniently: a figure the panel left out shows as 0. */
interface WireResources {
  attributes: Partial<Omit<ClientServerResources, 'resources'>> & {
    resources?: Partial<ClientServerResources['resources']>;
  };
}

export async function getServerResources(id: string): Promise<ServerResources> {
  const { data } = await http.get<WireResources>(`/api/client/servers/${id}/resources`);
  const r = data.attributes.resources ?? {};
  return {
    state: data.attributes.current_state ?? 'offline',
    isSuspended: data.attributes.is_suspended ?? false,
    memoryBytes: r.memory_bytes ?? 0,
    cpuAbsolute: r.cpu_absolute ?? 0,
    diskBytes: r.disk_bytes ?? 0,
    rxBytes: r.network_rx_bytes ?? 0,
    txBytes: r.network_tx_bytes ?? 0,
    uptime: r.uptime ?? 0,
  };
}

export interface WebsocketCredentials {
  token: string;
  socket: string;
}

export async function getWebsocketCredentials(id: string): Promise<WebsocketCredentials> {
  const { data } = await http.get<{ data: WebsocketCredentials }>(`/api/client/servers/${id}/websocket`);
  return data.data;
}
