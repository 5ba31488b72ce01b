import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/**
 * The second factor's single-use credentials: recovery tokens, and the last TOTP step used. Each
 * is used up by one conditional statement, so two requests (on one panel or on several sharing the
 * database) cannot both use the same one (CVE-2025-69197).
 */
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

  /**
   * Records `step` as the user's last used TOTP step if it is later than the one stored; false
   * when it is not (the code, or a later one, was used already).
   */
  async claimTotpStep(userId: number, step: number, at: string): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ totp_last_step: step, totp_authenticated_at: at })
      .where('id', '=', userId)
      .where('use_totp', '=', 1)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Turns two-factor on with the pending secret a code was checked against, recording the code's
   * step; false when it is already on or the secret changed in between (another request won).
   */
  async enableTotp(userId: number, secret: string, step: number, at: string): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ use_totp: 1, totp_authenticated_at: at, totp_last_step: step, updated_at: at })
      .where('id', '=', userId)
      .where('use_totp', '=', 0)
      .where('totp_secret', '=', secret)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async clear(userId: number): Promise<void> {
    await this.db.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
  }
}
