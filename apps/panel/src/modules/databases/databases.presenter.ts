import type { ApplicationServerDatabase, ClientServerDatabase } from '@talon/shared';
import { atom } from '../../lib/time.ts';
import type { DatabaseIds } from './database-ids.ts';
import type { DatabaseWithHost } from './databases.repository.ts';

const NULL_RESOURCE = { object: 'null_resource', attributes: null } as const;

/**
 * The client `server_database` (reference §3.1). `password`: undefined leaves out the relationship
 * (no `include=password`); null is the null resource of a caller without `database.view_password`.
 */
export function clientDatabaseAttributes(
  ids: DatabaseIds,
  { database, host }: DatabaseWithHost,
  password?: string | null,
): ClientServerDatabase {
  const attributes: ClientServerDatabase = {
    id: ids.encode(database.id),
    host: { address: host.host, port: host.port },
    name: database.database,
    username: database.username,
    connections_from: database.remote,
    max_connections: database.max_connections,
  };
  if (password !== undefined) {
    attributes.relationships = {
      password: password === null ? NULL_RESOURCE : { object: 'database_password', attributes: { password } },
    };
  }
  return attributes;
}

/** The application `server_database` (reference §5.1); includes are added by the routes. */
export function applicationDatabaseAttributes({ database }: DatabaseWithHost): ApplicationServerDatabase {
  return {
    id: database.id,
    server: database.server_id,
    host: database.database_host_id,
    database: database.database,
    username: database.username,
    remote: database.remote,
    max_connections: database.max_connections,
    created_at: atom(database.created_at) ?? '',
    updated_at: atom(database.updated_at) ?? '',
  };
}
