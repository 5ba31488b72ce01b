import { presentServers } from '../servers/servers.application.includes.ts';
import type { IncludeRepositories, IncludeSources } from './include-sources.ts';
import type { ServerRelation } from './included-servers.repository.ts';
import { NULL_RESOURCE, relItem, relList, type Includes, type Relationship } from './includes.ts';

/**
 * The `servers` / `server` includes of users, nodes, locations and allocations: the servers related
 * to a page of objects, loaded with one query and rendered by the servers' application presenter
 * (with the includes requested below the include's name, e.g. `servers.node`).
 */
export class IncludedServers {
  constructor(private readonly repos: IncludeRepositories) {}

  private get sources(): IncludeSources {
    return { ...this.repos, includedServers: this };
  }

  /**
   * The `servers` relationship of each id, or nothing when not requested (the `servers` include of
   * users, nodes, locations, eggs and nests).
   */
  async lists(
    inc: Includes,
    by: Exclude<ServerRelation, 'id'>,
    ids: number[],
  ): Promise<Map<number, Relationship> | null> {
    const want = inc.want('servers', 'r_servers');
    if (want === 'no') return null;
    const out = new Map<number, Relationship>();
    if (want === 'denied') {
      for (const id of ids) out.set(id, NULL_RESOURCE);
      return out;
    }
    const grouped = await this.repos.includedServers.load(by, ids);
    const all = [...new Map([...grouped.values()].flat().map((s) => [s.id, s])).values()];
    const presented = await presentServers(this.sources, all, inc.below('servers'));
    const byId = new Map(presented.map((s) => [s.id, s]));
    for (const [id, servers] of grouped) {
      out.set(
        id,
        relList(
          'server',
          servers.map((s) => byId.get(s.id)),
        ),
      );
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
      const servers = [...(await this.repos.includedServers.load('id', ids)).values()].flat();
      for (const server of await presentServers(this.sources, servers, inc.below('server'))) {
        out.set(server.id, relItem('server', server));
      }
    }
    return out;
  }
}
