import type { Kysely } from 'kysely';
import type { Database, Server } from '../../db/types.ts';

export type ServerRelation = 'owner_id' | 'node_id' | 'location_id' | 'egg_id' | 'nest_id' | 'id';

/** The servers related to a page of users, nodes, locations, eggs, nests or allocations (for includes). */
export class IncludedServersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Servers whose `by` column is one of `ids`, grouped by that value. */
  async load(by: ServerRelation, ids: number[]): Promise<Map<number, Server[]>> {
    const out = new Map<number, Server[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    if (by === 'location_id') {
      const rows = await this.db
        .selectFrom('servers')
        .innerJoin('nodes', 'nodes.id', 'servers.node_id')
        .selectAll('servers')
        .select('nodes.location_id as via_location')
        .where('nodes.location_id', 'in', ids)
        .orderBy('servers.id')
        .execute();
      for (const { via_location, ...server } of rows) out.get(via_location)?.push(server);
    } else {
      const rows = await this.db
        .selectFrom('servers')
        .selectAll()
        .where(by, 'in', ids)
        .orderBy('id')
        .execute();
      for (const server of rows) out.get(server[by])?.push(server);
    }
    return out;
  }
}
