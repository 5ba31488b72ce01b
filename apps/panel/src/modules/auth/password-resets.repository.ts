import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  latestFor(email: string) {
    return this.db
      .selectFrom('password_resets')
      .selectAll()
      .where('email', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async insert(email: string, tokenHash: string, at: string): Promise<void> {
    await this.db
      .insertInto('password_resets')
      .values({ email, token_hash: tokenHash, created_at: at })
      .execute();
  }

  async clear(email: string): Promise<void> {
    await this.db.deleteFrom('password_resets').where('email', '=', email).execute();
  }
}
