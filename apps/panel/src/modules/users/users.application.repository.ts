import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/types.ts';
import { page, type ListParams } from '../application/listing.ts';

/** The queries of the application API's users endpoints that the account repository lacks. */
export class ApplicationUsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(params: ListParams): Promise<{ rows: User[]; total: number }> {
    return page(this.db.selectFrom('users').selectAll(), params, 'users.id');
  }

  /** Two-factor off, secret and recovery tokens gone, in one transaction. */
  async clearTwoFactor(userId: number, at: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({
          use_totp: 0,
          totp_secret: null,
          totp_authenticated_at: null,
          totp_last_step: null,
          updated_at: at,
        })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
    });
  }

  findByIds(ids: number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  findByExternalId(externalId: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('external_id', '=', externalId).executeTakeFirst();
  }

  async externalIdTaken(externalId: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('users').select('id').where('external_id', '=', externalId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async ownsServers(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('servers')
      .select('id')
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Removes the account and what only it owns (keys, sessions, subuser rows cascade or go here). */
  async delete(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('subusers').where('user_id', '=', userId).execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
    });
  }
}
