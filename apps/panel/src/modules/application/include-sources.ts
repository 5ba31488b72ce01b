import type { ServerDatabasesRepository } from '../databases/databases.repository.ts';
import type { EggsRepository } from '../eggs/eggs.repository.ts';
import type { LocationsRepository } from '../locations/locations.repository.ts';
import type { AllocationsRepository } from '../nodes/allocations.repository.ts';
import type { NodesRepository } from '../nodes/nodes.repository.ts';
import type { ServersRepository } from '../servers/servers.repository.ts';
import type { ApplicationUsersRepository } from '../users/users.application.repository.ts';
import type { IncludedServers } from './included-servers.ts';
import type { IncludedServersRepository } from './included-servers.repository.ts';

/** The repositories the application presenters load includes from (one query per include per page). */
export interface IncludeRepositories {
  servers: ServersRepository;
  nodes: NodesRepository;
  allocations: AllocationsRepository;
  locations: LocationsRepository;
  eggs: EggsRepository;
  applicationUsers: ApplicationUsersRepository;
  includedServers: IncludedServersRepository;
  serverDatabases: ServerDatabasesRepository;
}

/**
 * What every application presenter with includes receives: the repositories, with the servers
 * include service in place of its repository (`{ ...ctx.repositories, includedServers }`).
 */
export type IncludeSources = Omit<IncludeRepositories, 'includedServers'> & {
  includedServers: IncludedServers;
};
