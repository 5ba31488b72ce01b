import {
  getItem,
  itemPath,
  toAllocation,
  getPage,
  relationItem,
  relationList,
  requestApp,
  sendItem,
  type ListQuery,
  type Allocation,
  type Page,
  type WireAllocation,
  type WireRelationships,
} from './http.ts';
import { toAdminUser, type AdminUser, type WireAdminUser } from './users.ts';
import { toAdminNode, type AdminNode, type WireNode } from './nodes.ts';

/** A server's resource limits (MiB, %, IO weight; `threads` a CPU list), as read and as sent. */
export interface ServerLimits {
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
}

/** How many databases, extra addresses and backups a server may have (null: no limit set). */
export interface FeatureLimits {
  databases: number | null;
  allocations: number | null;
  backups: number | null;
}

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
  limits: ServerLimits & { oom_disabled: boolean };
  feature_limits: FeatureLimits;
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

/** The server as the screens use it: the wire's plain fields as they are, the rest in camelCase. */
export interface AdminServer extends Pick<
  WireAdminServer,
  'id' | 'uuid' | 'identifier' | 'name' | 'description' | 'status' | 'suspended'
> {
  externalId: string | null;
  limits: ServerLimits & { oomDisabled: boolean };
  featureLimits: FeatureLimits;
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
  /** Filled when asked with include=allocations (the primary one is `allocationId`). */
  allocations: ServerAllocation[];
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
    allocations: relationList<WireServerAllocation>(wire, 'allocations').map(toServerAllocation),
  };
}

const serverPath = (id: number | string) => itemPath('/servers', id);

/** Filters (extension): owner_id, node_id, status; sorts: name, created_at. */
export function listServers(query: ListQuery = {}): Promise<Page<AdminServer>> {
  return getPage('/servers', query, toAdminServer);
}

export function getServer(id: number | string, include: string[] = []): Promise<AdminServer> {
  return getItem(serverPath(id), toAdminServer, include);
}

/** Application `allocation` (reference §5.1), as a server's include or a node's free addresses. */
export type WireServerAllocation = WireAllocation;
export type ServerAllocation = Allocation;
export const toServerAllocation = toAllocation;

/** `alias:port` when the address has an alias, else `ip:port` (IPv6 in brackets). */
export function allocationAddress(allocation: { ip: string; alias: string | null; port: number }): string {
  const host = allocation.alias || allocation.ip;
  return `${host.includes(':') ? `[${host}]` : host}:${allocation.port}`;
}

/**
 * A node's unassigned allocations, for choosing a new server's addresses. `filter[server_id]` with
 * a non-numeric value selects the unassigned ones (reference §5.3); one large page is enough here.
 */
export async function listFreeAllocations(nodeId: number | string): Promise<ServerAllocation[]> {
  const page = await getPage(
    `${itemPath('/nodes', nodeId)}/allocations`,
    { perPage: 1000, filters: { server_id: 'false' } },
    toServerAllocation,
  );
  return page.items;
}

/** An egg variable (reference §5.1 `egg_variable`), as a new server's form shows it. */
export interface EggVariableChoice {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

/** What a new server takes from its egg: images, startup command and variables. */
export interface EggForServer {
  id: number;
  nestId: number;
  name: string;
  dockerImages: Record<string, string>;
  startup: string;
  variables: EggVariableChoice[];
}

interface WireEggForServer extends WireRelationships {
  id: number;
  nest: number;
  name: string;
  docker_images: Record<string, string>;
  startup: string;
}

interface WireEggVariable {
  name: string;
  description: string | null;
  env_variable: string;
  default_value: string | null;
  user_viewable: boolean;
  user_editable: boolean;
  rules: string | null;
}

function toEggVariableChoice(v: WireEggVariable): EggVariableChoice {
  return {
    name: v.name,
    description: v.description ?? '',
    envVariable: v.env_variable,
    defaultValue: v.default_value ?? '',
    userViewable: v.user_viewable,
    userEditable: v.user_editable,
    rules: v.rules ?? '',
  };
}

export function getEggForServer(nestId: number | string, eggId: number | string): Promise<EggForServer> {
  return getItem(
    `${itemPath('/nests', nestId)}${itemPath('/eggs', eggId)}`,
    (wire: WireEggForServer) => ({
      id: wire.id,
      nestId: wire.nest,
      name: wire.name,
      dockerImages: wire.docker_images,
      startup: wire.startup,
      variables: relationList<WireEggVariable>(wire, 'variables').map(toEggVariableChoice),
    }),
    ['variables'],
  );
}

/** POST /api/application/servers (reference §5.5): either `allocation` or `deploy`. */
export interface CreateServerBody {
  name: string;
  user: number;
  egg: number;
  docker_image: string;
  startup: string;
  environment: Record<string, string>;
  limits: ServerLimits;
  feature_limits: { databases: number; allocations: number; backups: number };
  allocation?: { default: number; additional: number[] };
  deploy?: { locations: number[]; dedicated_ip: boolean; port_range: string[] };
  external_id: string | null;
  description: string | null;
  oom_disabled: boolean;
  skip_scripts: boolean;
  start_on_completion: boolean;
}

export function createServer(body: CreateServerBody): Promise<AdminServer> {
  return sendItem('POST', '/servers', body, toAdminServer);
}

// ---- The admin server view (details, build, startup, manage): reference §5.5. ----

/** A server's value of one egg variable (`include=variables`, reference §5.1 `server_variable`). */
export interface ServerVariable extends EggVariableChoice {
  /** null: the server has no value of its own (the egg's default applies). */
  serverValue: string | null;
}

interface WireServerVariable extends WireEggVariable {
  server_value: string | null;
}

/** The server's egg variables with its values (the Startup tab). */
export function getServerVariables(id: number | string): Promise<ServerVariable[]> {
  return getItem(
    serverPath(id),
    (wire: WireAdminServer) =>
      relationList<WireServerVariable>(wire, 'variables').map((v) => ({
        ...toEggVariableChoice(v),
        serverValue: v.server_value,
      })),
    ['variables'],
  );
}

/** PATCH …/details writes all four fields (reference quirk): always send every one. */
export interface ServerDetailsBody {
  name: string;
  user: number;
  external_id: string | null;
  description: string;
}

export function updateServerDetails(id: number, body: ServerDetailsBody): Promise<AdminServer> {
  return sendItem('PATCH', `${serverPath(id)}/details`, body, toAdminServer);
}

/** PATCH …/build in the nested `limits` shape. */
export interface ServerBuildBody {
  allocation: number;
  oom_disabled: boolean;
  limits: ServerLimits;
  feature_limits: { databases: number | null; allocations: number | null; backups: number };
  add_allocations: number[];
  remove_allocations: number[];
}

export function updateServerBuild(id: number, body: ServerBuildBody): Promise<AdminServer> {
  return sendItem('PATCH', `${serverPath(id)}/build`, body, toAdminServer);
}

/** PATCH …/startup: `environment` must hold every variable (missing ones are blanked). */
export interface ServerStartupBody {
  startup: string;
  environment: Record<string, string>;
  egg: number;
  image: string;
  skip_scripts: boolean;
}

export function updateServerStartup(id: number, body: ServerStartupBody): Promise<AdminServer> {
  return sendItem('PATCH', `${serverPath(id)}/startup`, body, toAdminServer);
}

export async function suspendServer(id: number): Promise<void> {
  await requestApp('POST', `${serverPath(id)}/suspend`);
}

export async function unsuspendServer(id: number): Promise<void> {
  await requestApp('POST', `${serverPath(id)}/unsuspend`);
}

export async function reinstallServer(id: number): Promise<void> {
  await requestApp('POST', `${serverPath(id)}/reinstall`);
}

/** `force`: the panel's record goes even when the node cannot be reached. */
export async function deleteServer(id: number, force = false): Promise<void> {
  await requestApp('DELETE', `${serverPath(id)}${force ? '/force' : ''}`);
}
