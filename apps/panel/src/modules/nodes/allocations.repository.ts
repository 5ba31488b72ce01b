import type { Kysely, Updateable } from 'kysely';
import type { Allocation, AllocationsTable, Database } from '../../db/types.ts';
import { page, type ListParams } from '../application/listing.ts';

/** Rows per INSERT: well below SQLite's bound-parameter limit. */
const CHUNK = 100;

export class AllocationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A node's allocations. `serverId`: a number selects that server's, null the unassigned ones,
   * undefined does not filter.
   */
  list(
    nodeId: number,
    params: ListParams,
    serverId?: number | null,
  ): Promise<{ rows: Allocation[]; total: number }> {
    let q = this.db.selectFrom('allocations').selectAll().where('node_id', '=', nodeId);
    if (serverId === null) q = q.where('server_id', 'is', null);
    else if (serverId !== undefined) q = q.where('server_id', '=', serverId);
    return page(q, params, 'allocations.id');
  }

  forNodes(nodeIds: number[]): Promise<Allocation[]> {
    if (nodeIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('allocations')
      .selectAll()
      .where('node_id', 'in', nodeIds)
      .orderBy('id')
      .execute();
  }

  findOnNode(nodeId: number, id: number): Promise<Allocation | undefined> {
    return this.db
      .selectFrom('allocations')
      .selectAll()
      .where('node_id', '=', nodeId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Adds every ip × port pair; pairs the node already has are left as they are. */
  async insertMissing(
    nodeId: number,
    ips: string[],
    ports: number[],
    alias: string | null,
    at: string,
  ): Promise<number> {
    const rows = ips.flatMap((ip) =>
      ports.map((port) => ({
        node_id: nodeId,
        ip,
        port,
        ip_alias: alias,
        server_id: null,
        notes: null,
        created_at: at,
        updated_at: at,
      })),
    );
    let added = 0;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const result = await trx
          .insertInto('allocations')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['node_id', 'ip', 'port']).doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
    });
    return added;
  }

  async update(id: number, values: Updateable<AllocationsTable>): Promise<void> {
    await this.db.updateTable('allocations').set(values).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('allocations').where('id', '=', id).execute();
  }
}
