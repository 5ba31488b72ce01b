import { getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `database_host` (reference §5.1). */
export interface WireDatabaseHost {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  node: number | null;
  created_at: string;
  updated_at: string | null;
}

export interface AdminDatabaseHost {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  nodeId: number | null;
  createdAt: string;
  updatedAt: string | null;
}

export function toAdminDatabaseHost(wire: WireDatabaseHost): AdminDatabaseHost {
  return {
    id: wire.id,
    name: wire.name,
    host: wire.host,
    port: wire.port,
    username: wire.username,
    nodeId: wire.node,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
  };
}

export function listDatabaseHosts(query: ListQuery = {}): Promise<Page<AdminDatabaseHost>> {
  return getPage('/database-hosts', query, toAdminDatabaseHost);
}

export function getDatabaseHost(id: number | string): Promise<AdminDatabaseHost> {
  return getItem(`/database-hosts/${encodeURIComponent(String(id))}`, toAdminDatabaseHost);
}
