import type { ClientServerDatabase } from '@talon/shared/client/database-wire';
import { http } from './http.ts';

/** Database (spec 001 §3): `connectionString` is the host's `address:port`; the password only with `database.view_password`. */
export interface Database {
  id: string;
  name: string;
  username: string;
  /** `address:port` of the database host. */
  connectionString: string;
  host: { address: string; port: number };
  /** wire `connections_from`. */
  allowConnectionsFrom: string;
  maxConnections: number | null;
  /** Absent when the panel withheld it (no `database.view_password`). */
  password?: string;
}

export function toDatabase(wire: ClientServerDatabase): Database {
  const password = wire.relationships?.password;
  return {
    id: wire.id,
    name: wire.name,
    username: wire.username,
    connectionString: `${wire.host.address}:${wire.host.port}`,
    host: wire.host,
    allowConnectionsFrom: wire.connections_from,
    maxConnections: wire.max_connections,
    ...(password?.object === 'database_password' ? { password: password.attributes.password } : {}),
  };
}

const base = (serverId: string) => `/api/client/servers/${serverId}/databases`;
/** The SPA always asks for the password include (spec 001 §7); the panel withholds it without permission. */
const WITH_PASSWORD = { include: 'password' } as const;

interface Item {
  attributes: ClientServerDatabase;
}

/** GET .../databases?include=password. */
export async function getDatabases(serverId: string): Promise<Database[]> {
  const { data } = await http.get<{ data: Item[] }>(base(serverId), { params: WITH_PASSWORD });
  return data.data.map(({ attributes }) => toDatabase(attributes));
}

/** POST .../databases?include=password with `database` and `remote` (spec 001 §7). */
export async function createDatabase(
  serverId: string,
  input: { database: string; remote: string },
): Promise<Database> {
  const { data } = await http.post<Item>(base(serverId), input, { params: WITH_PASSWORD });
  return toDatabase(data.attributes);
}

/** POST .../databases/{id}/rotate-password: the database with its new password. */
export async function rotateDatabasePassword(serverId: string, id: string): Promise<Database> {
  const { data } = await http.post<Item>(`${base(serverId)}/${id}/rotate-password`);
  return toDatabase(data.attributes);
}

/** DELETE .../databases/{id}. */
export async function deleteDatabase(serverId: string, id: string): Promise<void> {
  await http.delete(`${base(serverId)}/${id}`);
}
