import { sql, type Kysely } from 'kysely';
import type { Database, Node, NodesTable } from '../../db/types.ts';
import type { Insertable, Updateable } from 'kysely';
import { page, type ListParams } from '../application/listing.ts';
import type { AllocatedResources } from './nodes.presenter.ts';

export class NodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(params: ListParams): Promise<{ rows: Node[]; total: number }> {
    return page(this.db.selectFrom('nodes').selectAll(), params, 'nodes.id');
  }

  findById(id: number): Promise<Node | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByIds(ids: number[]): Promise<Node[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('nodes').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  inLocations(locationIds: number[]): Promise<Node[]> {
    if (locationIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('nodes')
      .selectAll()
      .where('location_id', 'in', locationIds)
      .orderBy('id')
      .execute();
  }

  /** Public nodes, optionally only in some locations: the candidates of automatic deployment. */
  deployCandidates(locationIds: number[] | null): Promise<Node[]> {
    let q = this.db.selectFrom('nodes').selectAll().where('public', '=', 1).where('maintenance_mode', '=', 0);
    if (locationIds) q = q.where('location_id', 'in', locationIds.length > 0 ? locationIds : [-1]);
    return q.orderBy('id').execute();
  }

  /** Memory and disk summed over the servers of each node (0 for nodes without servers). */
  async allocated(nodeIds: number[]): Promise<Map<number, AllocatedResources>> {
    const out = new Map<number, AllocatedResources>(nodeIds.map((id) => [id, { memory: 0, disk: 0 }]));
    if (nodeIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('servers')
      .select([
        'node_id',
        sql<number>`coalesce(sum(memory), 0)`.as('memory'),
        sql<number>`coalesce(sum(disk), 0)`.as('disk'),
      ])
      .where('node_id', 'in', nodeIds)
      .groupBy('node_id')
      .execute();
    for (const r of rows) out.set(r.node_id, { memory: Number(r.memory), disk: Number(r.disk) });
    return out;
  }

  insert(values: Insertable<NodesTable>): Promise<Node> {
    return this.db.insertInto('nodes').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, values: Updateable<NodesTable>): Promise<void> {
    await this.db.updateTable('nodes').set(values).where('id', '=', id).execute();
  }

  async hasServers(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('servers').select('id').where('node_id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  /** Allocations go with the node (the foreign key cascades; deleted explicitly for clarity). */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('allocations').where('node_id', '=', id).execute();
      await trx.deleteFrom('nodes').where('id', '=', id).execute();
    });
  }
}
