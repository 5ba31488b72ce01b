import type { Kysely } from 'kysely';
import type { ApiKey, Database } from '../../db/types.ts';

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByIdentifier(identifier: string): Promise<ApiKey | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('identifier', '=', identifier).executeTakeFirst();
  }

  listForUser(userId: number, keyType: number): Promise<ApiKey[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key_type', '=', keyType)
      .orderBy('id')
      .execute();
  }

  async countForUser(userId: number, keyType: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('key_type', '=', keyType)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  insert(row: Omit<ApiKey, 'id'>): Promise<ApiKey> {
    return this.db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async deleteForUser(userId: number, identifier: string, keyType: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('api_keys')
      .where('user_id', '=', userId)
      .where('identifier', '=', identifier)
      .where('key_type', '=', keyType)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async touch(id: number, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
