import type { ApplicationDatabaseHost, DatabaseEngine } from '@talon/shared/client/database-wire';
import { deleteItem, getItem, getPage, sendItem, type ListQuery, type Page } from './http.ts';

/** Application `database_host` (Pelican's shape, our `engine`); wire shape in packages/shared. */
export type WireDatabaseHost = ApplicationDatabaseHost;
export type { DatabaseEngine };

export interface AdminDatabaseHost {
  id: number;
  name: string;
  engine: DatabaseEngine;
  host: string;
  port: number;
  username: string;
  /** null: no limit. */
  maxDatabases: number | null;
  /** The first of nodeIds (the reference's single node), or null. */
  nodeId: number | null;
  nodeIds: number[];
  createdAt: string;
  updatedAt: string | null;
}

export function toAdminDatabaseHost(wire: WireDatabaseHost): AdminDatabaseHost {
  return {
    id: wire.id,
    name: wire.name,
    engine: wire.engine,
    host: wire.host,
    port: wire.port,
    username: wire.username,
    maxDatabases: wire.max_databases,
    nodeId: wire.node,
    nodeIds: wire.node_ids,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
  };
}

/** No sorts or filters (as in Pelican); `search=` over name and host (extension). */
export function listDatabaseHosts(query: ListQuery = {}): Promise<Page<AdminDatabaseHost>> {
  return getPage('/database-hosts', query, toAdminDatabaseHost);
}

export function getDatabaseHost(id: number | string): Promise<AdminDatabaseHost> {
  return getItem(`/database-hosts/${encodeURIComponent(String(id))}`, toAdminDatabaseHost);
}

export interface DatabaseHostInput {
  name: string;
  engine: DatabaseEngine;
  host: string;
  port: number;
  username: string;
  /** Write-only. Empty on edit keeps the stored one (left out of the body). */
  password: string;
  maxDatabases: number | null;
  /** The nodes it serves ([] for none); the form edits the first. */
  nodeIds: number[];
}

function toBody(input: DatabaseHostInput, keepPasswordWhenEmpty: boolean) {
  return {
    name: input.name,
    engine: input.engine,
    host: input.host,
    port: input.port,
    username: input.username,
    ...(input.password !== '' || !keepPasswordWhenEmpty ? { password: input.password } : {}),
    max_databases: input.maxDatabases,
    node_ids: input.nodeIds,
  };
}

/**
 * The panel connects with the credentials first: a host it cannot use answers 400
 * DatabaseHostConnectionException naming the problem (unreachable, access denied, privileges).
 */
export function createDatabaseHost(input: DatabaseHostInput): Promise<AdminDatabaseHost> {
  return sendItem('POST', '/database-hosts', toBody(input, false), toAdminDatabaseHost);
}

export function updateDatabaseHost(id: number, input: DatabaseHostInput): Promise<AdminDatabaseHost> {
  return sendItem('PATCH', `/database-hosts/${id}`, toBody(input, true), toAdminDatabaseHost);
}

/** Refused (400) while the host has databases, with the API's words. */
export function deleteDatabaseHost(id: number): Promise<void> {
  return deleteItem(`/database-hosts/${id}`);
}
