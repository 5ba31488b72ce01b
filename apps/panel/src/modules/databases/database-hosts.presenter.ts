import type { ApplicationDatabaseHost, DatabaseEngine } from '@talon/shared';
import { atom } from '../../lib/time.ts';
import type { DatabaseHostWithNodes } from './database-hosts.repository.ts';

/** The application `database_host` (reference §5.1, Pelican's `node_ids`, our `engine`); never the password. */
export function databaseHostAttributes({ host, nodeIds }: DatabaseHostWithNodes): ApplicationDatabaseHost {
  return {
    id: host.id,
    name: host.name,
    engine: host.engine as DatabaseEngine,
    host: host.host,
    port: host.port,
    username: host.username,
    max_databases: host.max_databases,
    node: nodeIds[0] ?? null,
    node_ids: nodeIds,
    created_at: atom(host.created_at) ?? '',
    updated_at: atom(host.updated_at) ?? '',
  };
}
