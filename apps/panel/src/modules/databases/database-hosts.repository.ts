import type { Kysely } from 'kysely';
import type { Database, DatabaseHost, DatabaseHostsTable } from '../../db/types.ts';
import type { Insertable } from 'kysely';
import { applySearch, type ListParams } from '../application/listing.ts';

export interface DatabaseHostWithNodes {
  host: DatabaseHost;
  nodeIds: number[];
}

/** Database hosts and the nodes each serves. */
export class DatabaseHostsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** `search`: the application list's `search=` (listing.ts), matched against name and host. */
  async list(
    limit: number,
    offset: number,
    search: ListParams['search'] = null,
  ): Promise<{ rows: DatabaseHostWithNodes[]; total: number }> {
    const hosts = await applySearch(this.db.selectFrom('database_hosts').selectAll(), search)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { total } = await applySearch(this.db.selectFrom('database_hosts'), search)
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return { rows: await this.withNodes(hosts), total: Number(total) };
  }

  async find(id: number): Promise<DatabaseHostWithNodes | undefined> {
    const host = await this.db
      .selectFrom('database_hosts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return host ? (await this.withNodes([host]))[0] : undefined;
  }

  async findByName(name: string): Promise<DatabaseHost | undefined> {
    return this.db.selectFrom('database_hosts').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Hosts serving `nodeId` (first choice for a server on that node), then all hosts. */
  async forNode(nodeId: number): Promise<DatabaseHost[]> {
    return this.db
      .selectFrom('database_hosts')
      .innerJoin('database_host_nodes', 'database_host_nodes.database_host_id', 'database_hosts.id')
      .selectAll('database_hosts')
      .where('database_host_nodes.node_id', '=', nodeId)
      .orderBy('database_hosts.id')
      .execute();
  }

  async all(): Promise<DatabaseHost[]> {
    return this.db.selectFrom('database_hosts').selectAll().orderBy('id').execute();
  }

  async existingNodeIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('nodes').select('id').where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  async insert(values: Insertable<DatabaseHostsTable>, nodeIds: number[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('database_hosts')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.link(trx, id, nodeIds);
      return id;
    });
  }

  async update(
    id: number,
    values: Partial<Insertable<DatabaseHostsTable>>,
    nodeIds: number[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('database_hosts').set(values).where('id', '=', id).execute();
      await trx.deleteFrom('database_host_nodes').where('database_host_id', '=', id).execute();
      await this.link(trx, id, nodeIds);
    });
  }

  async databaseCount(id: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('databases')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('database_host_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('database_host_nodes').where('database_host_id', '=', id).execute();
      await trx.deleteFrom('database_hosts').where('id', '=', id).execute();
    });
  }

  private async link(trx: Kysely<Database>, id: number, nodeIds: number[]): Promise<void> {
    if (nodeIds.length === 0) return;
    await trx
      .insertInto('database_host_nodes')
      .values(nodeIds.map((node_id) => ({ database_host_id: id, node_id })))
      .execute();
  }

  private async withNodes(hosts: DatabaseHost[]): Promise<DatabaseHostWithNodes[]> {
    if (hosts.length === 0) return [];
    const links = await this.db
      .selectFrom('database_host_nodes')
      .selectAll()
      .where(
        'database_host_id',
        'in',
        hosts.map((h) => h.id),
      )
      .orderBy('node_id')
      .execute();
    return hosts.map((host) => ({
      host,
      nodeIds: links.filter((l) => l.database_host_id === host.id).map((l) => l.node_id),
    }));
  }
}
