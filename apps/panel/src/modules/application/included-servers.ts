import type { Server } from '../../db/types.ts';
import { applicationServerAttributes } from '../servers/servers.application.presenter.ts';
import type { ServersRepository } from '../servers/servers.repository.ts';
import type { IncludedServersRepository } from './included-servers.repository.ts';
import { NULL_RESOURCE, relItem, relList, type Includes, type Relationship } from './includes.ts';

/**
 * The `servers` / `server` includes of users, nodes, locations and allocations: the servers related
 * to a page of objects, loaded with one query and rendered by the servers' application presenter.
 */
export class IncludedServers {
  constructor(
    private readonly repo: IncludedServersRepository,
    private readonly servers: ServersRepository,
  ) {}

  private async render(server: Server) {
    return applicationServerAttributes(await this.servers.bundle(server));
  }

  /**
   * The `servers` relationship of each id, or nothing when not requested. `name` is the include's
   * name (`servers` on users, nodes, locations).
   */
  async lists(
    inc: Includes,
    by: 'owner_id' | 'node_id' | 'location_id',
    ids: number[],
  ): Promise<Map<number, Relationship> | null> {
    const want = inc.want('servers', 'r_servers');
    if (want === 'no') return null;
    const out = new Map<number, Relationship>();
    if (want === 'denied') {
      for (const id of ids) out.set(id, NULL_RESOURCE);
      return out;
    }
    const grouped = await this.repo.load(by, ids);
    for (const [id, servers] of grouped) {
      out.set(id, relList('server', await Promise.all(servers.map((s) => this.render(s)))));
    }
    return out;
  }

  /** The `server` relationship of allocations: a null resource when unassigned or not allowed. */
  async single(inc: Includes, serverIds: (number | null)[]): Promise<Map<number, Relationship> | null> {
    const want = inc.want('server', 'r_servers');
    if (want === 'no') return null;
    const out = new Map<number, Relationship>();
    if (want === 'yes') {
      const ids = [...new Set(serverIds.filter((id): id is number => id !== null))];
      for (const [id, servers] of await this.repo.load('id', ids)) {
        const [server] = servers;
        if (server) out.set(id, relItem('server', await this.render(server)));
      }
    }
    return out;
  }
}
