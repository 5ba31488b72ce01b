import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/client.ts';
import type { Backup, Database, Server } from '../../db/types.ts';

export type NewBackupRow = Pick<
  Backup,
  'server_id' | 'uuid' | 'name' | 'ignored_files' | 'is_locked' | 'disk'
>;

/**
 * The `backups` table. A backup is in progress while `completed_at` is null and failed when completed
 * and not successful; "non-failed" (in progress or successful) is what the limit and throttle count.
 * Soft-deleted rows (`deleted_at`) are invisible to everything but the throttle.
 */
export class BackupsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Inserts a backup row once `check` (given this repository inside the transaction) passes. The
   * server's row is locked first (PostgreSQL; SQLite runs one transaction at a time anyway), so two
   * requests racing for a server's last place or throttle slot are checked one after the other.
   */
  insertChecked(
    row: NewBackupRow,
    at: string,
    check: (tx: BackupsRepository) => Promise<void>,
  ): Promise<Backup> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        await trx.selectFrom('servers').select('id').where('id', '=', row.server_id).forUpdate().execute();
      }
      const tx = new BackupsRepository(trx, this.dialect);
      await check(tx);
      return tx.insert(row, at);
    });
  }

  /** One page of the server's backups, oldest first, and how many there are. */
  async page(serverId: number, offset: number, limit: number): Promise<{ rows: Backup[]; total: number }> {
    const live = this.db
      .selectFrom('backups')
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null);
    const [rows, count] = await Promise.all([
      live.selectAll().orderBy('id').offset(offset).limit(limit).execute(),
      live.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * Backups that are in progress or successful (not deleted): what `backup_limit` is compared with.
   */
  async countNonFailed(serverId: number): Promise<number> {
    const q = this.db
      .selectFrom('backups')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('completed_at', 'is', null), eb('is_successful', '=', 1)]));
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The creation times of the non-failed backups created since `since`, deleted ones included (the
   * reference's throttle counts them), oldest first.
   */
  async recentCreations(serverId: number, since: string): Promise<string[]> {
    const q = this.db
      .selectFrom('backups')
      .select('created_at')
      .where('server_id', '=', serverId)
      .where('created_at', '>=', since)
      .where((eb) => eb.or([eb('completed_at', 'is', null), eb('is_successful', '=', 1)]));
    const rows = await q.orderBy('created_at').execute();
    return rows.map((r) => r.created_at);
  }

  /** The server's backup of that uuid, unless deleted. */
  find(serverId: number, uuid: string): Promise<Backup | undefined> {
    return this.db
      .selectFrom('backups')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('uuid', '=', uuid)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** A backup (not deleted) of a server on `nodeId`, with its server: what a daemon may report on. */
  async findOnNode(uuid: string, nodeId: number): Promise<{ backup: Backup; server: Server } | undefined> {
    const backup = await this.db
      .selectFrom('backups')
      .innerJoin('servers', 'servers.id', 'backups.server_id')
      .selectAll('backups')
      .where('backups.uuid', '=', uuid)
      .where('backups.deleted_at', 'is', null)
      .where('servers.node_id', '=', nodeId)
      .executeTakeFirst();
    if (!backup) return undefined;
    const server = await this.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', backup.server_id)
      .executeTakeFirstOrThrow();
    return { backup, server };
  }

  /** Servers of a node that are restoring a backup (a daemon that restarts ends those restores). */
  restoringOnNode(nodeId: number): Promise<Pick<Server, 'id'>[]> {
    return this.db
      .selectFrom('servers')
      .select('id')
      .where('node_id', '=', nodeId)
      .where('status', '=', 'restoring_backup')
      .execute();
  }

  /** The oldest unlocked successful backup: the one a scheduled backup rotates out at the limit. */
  oldestRotatable(serverId: number): Promise<Backup | undefined> {
    return this.db
      .selectFrom('backups')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null)
      .where('is_locked', '=', 0)
      .where('is_successful', '=', 1)
      .where('completed_at', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Every live backup of a server (deleting the server removes their archives). */
  allOfServer(serverId: number): Promise<Backup[]> {
    return this.db
      .selectFrom('backups')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  }

  insert(row: NewBackupRow, at: string): Promise<Backup> {
    return this.db
      .insertInto('backups')
      .values({ ...row, is_successful: 0, bytes: 0, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Removes a row that never became a backup (the daemon refused to start it). */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('backups').where('id', '=', id).execute();
  }

  async update(id: number, values: Partial<Omit<Backup, 'id' | 'server_id' | 'uuid'>>): Promise<Backup> {
    return this.db
      .updateTable('backups')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Stores a daemon's report unless the backup is already successful; undefined when it was (or the
   * row went away). One conditional update, so two reports cannot both complete it.
   */
  complete(
    id: number,
    values: Pick<Backup, 'is_successful' | 'checksum' | 'bytes' | 'completed_at' | 'updated_at'> &
      Partial<Pick<Backup, 'is_locked'>>,
  ): Promise<Backup | undefined> {
    return this.db
      .updateTable('backups')
      .set(values)
      .where('id', '=', id)
      .where('is_successful', '=', 0)
      .returningAll()
      .executeTakeFirst();
  }

  async softDelete(id: number, at: string): Promise<void> {
    await this.db
      .updateTable('backups')
      .set({ deleted_at: at, updated_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * Marks backups still in progress since before `cutoff` failed and returns them. One UPDATE …
   * RETURNING: with several panels on one database each row is returned to one of them only.
   */
  failStale(cutoff: string, at: string): Promise<Backup[]> {
    return this.db
      .updateTable('backups')
      .set({ is_successful: 0, is_locked: 0, completed_at: at, updated_at: at })
      .where('completed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('created_at', '<', cutoff)
      .returningAll()
      .execute();
  }

  /** Soft-deletes failed backups completed before `cutoff`; returns them (same single-statement rule). */
  removeFailed(cutoff: string, at: string): Promise<Backup[]> {
    return this.db
      .updateTable('backups')
      .set({ deleted_at: at, updated_at: at })
      .where('is_successful', '=', 0)
      .where('completed_at', 'is not', null)
      .where('completed_at', '<', cutoff)
      .where('deleted_at', 'is', null)
      .returningAll()
      .execute();
  }
}
