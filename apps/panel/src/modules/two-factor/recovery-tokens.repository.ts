import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export class RecoveryTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  forUser(userId: number) {
    return this.db.selectFrom('recovery_tokens').selectAll().where('user_id', '=', userId).execute();
  }

  async replace(userId: number, hashes: string[], at: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_tokens')
        .values(hashes.map((token) => ({ user_id: userId, token, created_at: at })))
        .execute();
    });
  }

  /** Deletes one token; false when it was already used (so a race cannot use it twice). */
  async consume(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('recovery_tokens').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async clear(userId: number): Promise<void> {
    await this.db.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
  }
}
