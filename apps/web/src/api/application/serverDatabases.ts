import type {
  ApplicationDatabaseHost,
  ApplicationServerDatabase,
  ApplicationServerDatabaseCreateBody,
} from '@talon/shared';
import { deleteItem, getAll, relationItem, requestApp, sendItem, type WireRelationships } from './http.ts';
import { toAdminDatabaseHost, type AdminDatabaseHost } from './databaseHosts.ts';

/** A server's database (reference §5.6, application `server_database`), wire shape in packages/shared. */
export interface AdminServerDatabase {
  id: number;
  serverId: number;
  hostId: number;
  database: string;
  username: string;
  remote: string;
  maxConnections: number | null;
  createdAt: string;
  /** With include=password; null when not asked for. */
  password: string | null;
  /** With include=host; null when not asked for. */
  host: AdminDatabaseHost | null;
}

export type ServerDatabaseBody = ApplicationServerDatabaseCreateBody;

function toAdminServerDatabase(wire: ApplicationServerDatabase & WireRelationships): AdminServerDatabase {
  const host = relationItem<ApplicationDatabaseHost>(wire, 'host');
  return {
    id: wire.id,
    serverId: wire.server,
    hostId: wire.host,
    database: wire.database,
    username: wire.username,
    remote: wire.remote,
    maxConnections: wire.max_connections,
    createdAt: wire.created_at,
    password: relationItem<{ password: string }>(wire, 'password')?.password ?? null,
    host: host ? toAdminDatabaseHost(host) : null,
  };
}

const databasesPath = (serverId: number | string) =>
  `/servers/${encodeURIComponent(String(serverId))}/databases`;

/** Every database of the server with its host and password (the list is not paginated). */
export function listServerDatabases(serverId: number | string): Promise<AdminServerDatabase[]> {
  return getAll(databasesPath(serverId), toAdminServerDatabase, ['host', 'password']);
}

/** A database on a host, with the name of the server it belongs to (extension route). */
export interface HostDatabase extends AdminServerDatabase {
  serverName: string;
}

/** Every database made on a database host, each with its server (not paginated). */
export function listHostDatabases(hostId: number | string): Promise<HostDatabase[]> {
  return getAll(
    `/database-hosts/${encodeURIComponent(String(hostId))}/databases`,
    (wire: ApplicationServerDatabase & WireRelationships) => ({
      ...toAdminServerDatabase(wire),
      serverName: relationItem<{ name: string }>(wire, 'server')?.name ?? String(wire.server),
    }),
  );
}

export function createServerDatabase(
  serverId: number,
  body: ServerDatabaseBody,
): Promise<AdminServerDatabase> {
  return sendItem('POST', databasesPath(serverId), body, toAdminServerDatabase);
}

/** 204: the new password is read back with the list's `include=password`. */
export async function rotateServerDatabasePassword(serverId: number, databaseId: number): Promise<void> {
  await requestApp('POST', `${databasesPath(serverId)}/${databaseId}/reset-password`);
}

export function deleteServerDatabase(serverId: number, databaseId: number): Promise<void> {
  return deleteItem(`${databasesPath(serverId)}/${databaseId}`);
}
