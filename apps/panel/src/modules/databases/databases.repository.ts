import type { Insertable, Kysely } from 'kysely';
import { lockRow } from '../../db/row-lock.ts';
import type { Database, DatabaseHost, ServerDatabase, ServerDatabasesTable } from '../../db/types.ts';

export interface DatabaseWithHost {
  database: ServerDatabase;
  host: DatabaseHost;
}

/** Rows of `databases` (one per database created for a server), read with their host. */
export class ServerDatabasesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listForServer(serverId: number): Promise<DatabaseWithHost[]> {
    const rows = await this.db
      .selectFrom('databases')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('id')
      .execute();
    return this.withHosts(rows);
  }

  /** The databases of several servers at once (the application API's `databases` include). */
  async listForServers(serverIds: number[]): Promise<DatabaseWithHost[]> {
    if (serverIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('databases')
      .selectAll()
      .where('server_id', 'in', serverIds)
      .orderBy('id')
      .execute();
    return this.withHosts(rows);
  }

  /** The databases made on a host, each with the name of its server (the host's admin page lists them). */
  async listForHost(hostId: number): Promise<(DatabaseWithHost & { serverName: string })[]> {
    const rows = await this.db
      .selectFrom('databases')
      .innerJoin('servers', 'servers.id', 'databases.server_id')
      .selectAll('databases')
      .select('servers.name as server_name')
      .where('databases.database_host_id', '=', hostId)
      .orderBy('databases.server_id')
      .orderBy('databases.id')
      .execute();
    const withHosts = await this.withHosts(rows.map(({ server_name: _, ...database }) => database));
    return withHosts.map((row, i) => ({ ...row, serverName: rows[i]!.server_name }));
  }

  async find(id: number): Promise<DatabaseWithHost | undefined> {
    const row = await this.db.selectFrom('databases').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withHosts([row]))[0] : undefined;
  }

  async countForServer(serverId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('databases')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('server_id', '=', serverId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async countForHost(hostId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('databases')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('database_host_id', '=', hostId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async nameTaken(serverId: number, name: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('databases')
      .select('id')
      .where('server_id', '=', serverId)
      .where('database', '=', name)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Inserts the row once `check` (given this repository inside the transaction) passes, with the
   * server's and the host's rows locked first: parallel creates for the same server or host are
   * counted one after the other, so a limit holds (CVE-2025-69198).
   */
  insertChecked(
    values: Insertable<ServerDatabasesTable>,
    check: (tx: ServerDatabasesRepository) => Promise<void>,
  ): Promise<ServerDatabase> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'servers', values.server_id);
      await lockRow(trx, 'database_hosts', values.database_host_id);
      const tx = new ServerDatabasesRepository(trx);
      await check(tx);
      return tx.insert(values);
    });
  }

  async insert(values: Insertable<ServerDatabasesTable>): Promise<ServerDatabase> {
    return this.db.insertInto('databases').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async setPassword(id: number, password: string, at: string): Promise<void> {
    await this.db.updateTable('databases').set({ password, updated_at: at }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('databases').where('id', '=', id).execute();
  }

  private async withHosts(rows: ServerDatabase[]): Promise<DatabaseWithHost[]> {
    if (rows.length === 0) return [];
    const hosts = await this.db
      .selectFrom('database_hosts')
      .selectAll()
      .where('id', 'in', [...new Set(rows.map((r) => r.database_host_id))])
      .execute();
    const byId = new Map(hosts.map((h) => [h.id, h]));
    return rows.map((database) => ({ database, host: byId.get(database.database_host_id) as DatabaseHost }));
  }
}
