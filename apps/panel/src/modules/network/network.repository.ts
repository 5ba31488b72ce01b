import type { Kysely } from 'kysely';
import { lockRow } from '../../db/row-lock.ts';
import type { Allocation, Database } from '../../db/types.ts';

/** The SQL of a server's allocations as its users manage them (reference §3.3 "Network allocations"). */
export class NetworkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Runs `work` (given this repository inside the transaction) with the server's row locked: a
   * limit it counts holds against parallel requests for the same server.
   */
  withServerLocked<T>(serverId: number, work: (tx: NetworkRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'servers', serverId);
      return work(new NetworkRepository(trx));
    });
  }

  /** The server's allocations in id order. */
  ofServer(serverId: number): Promise<Allocation[]> {
    return this.db
      .selectFrom('allocations')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('id')
      .execute();
  }

  /** `{allocation}` looked up through its server: another server's allocation is not found. */
  findOnServer(serverId: number, id: number): Promise<Allocation | undefined> {
    return this.db
      .selectFrom('allocations')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async countOnServer(serverId: number): Promise<number> {
    const row = await this.db
      .selectFrom('allocations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('server_id', '=', serverId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Unassigned allocations of a node on one IP. */
  freeOnAddress(nodeId: number, ip: string): Promise<Allocation[]> {
    return this.db
      .selectFrom('allocations')
      .selectAll()
      .where('node_id', '=', nodeId)
      .where('ip', '=', ip)
      .where('server_id', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** Every port a node already has on one IP, assigned or not. */
  async portsOnAddress(nodeId: number, ip: string, from: number, to: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('allocations')
      .select('port')
      .where('node_id', '=', nodeId)
      .where('ip', '=', ip)
      .where('port', '>=', from)
      .where('port', '<=', to)
      .execute();
    return new Set(rows.map((r) => r.port));
  }

  /** Gives a free allocation to the server; false when another request took it first. */
  async assign(id: number, serverId: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('allocations')
      .set({ server_id: serverId, notes: null, updated_at: at })
      .where('id', '=', id)
      .where('server_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A new allocation already given to the server; undefined when the ip:port pair exists by now. */
  insertAssigned(
    row: { node_id: number; ip: string; ip_alias: string | null; port: number; server_id: number },
    at: string,
  ): Promise<Allocation | undefined> {
    return this.db
      .insertInto('allocations')
      .values({ ...row, notes: null, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['node_id', 'ip', 'port']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async setNotes(id: number, notes: string | null, at: string): Promise<void> {
    await this.db.updateTable('allocations').set({ notes, updated_at: at }).where('id', '=', id).execute();
  }

  /** Takes the allocation back from the server; the row stays on its node, without notes. */
  async release(id: number, serverId: number, at: string): Promise<void> {
    await this.db
      .updateTable('allocations')
      .set({ server_id: null, notes: null, updated_at: at })
      .where('id', '=', id)
      .where('server_id', '=', serverId)
      .execute();
  }
}
