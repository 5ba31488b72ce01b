import type { CompiledQuery, Kysely } from 'kysely';
import type { ApiKey, Database, User } from '../../db/types.ts';

const USER_COLUMNS = [
  'id',
  'uuid',
  'external_id',
  'username',
  'email',
  'name_first',
  'name_last',
  'password',
  'language',
  'root_admin',
  'use_totp',
  'totp_secret',
  'totp_authenticated_at',
  'totp_last_step',
  'gravatar',
  'created_at',
  'updated_at',
] as const;

export class ApiKeysRepository {
  /** Compiled once: this lookup runs on every API-key request. */
  private readonly withOwnerQuery: CompiledQuery;

  constructor(private readonly db: Kysely<Database>) {
    this.withOwnerQuery = db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('api_keys')
      .select(USER_COLUMNS.map((c) => `users.${c} as owner_${c}` as const))
      .where('api_keys.identifier', '=', '')
      .compile();
  }

  /** The key with this identifier and the user who owns it, in one query. */
  async findWithOwner(identifier: string): Promise<{ key: ApiKey; owner: User } | undefined> {
    const { rows } = await this.db.executeQuery<Record<string, unknown>>({
      ...this.withOwnerQuery,
      parameters: [identifier],
    });
    const row = rows[0];
    if (!row) return undefined;
    const key: Record<string, unknown> = {};
    const owner: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (k.startsWith('owner_')) owner[k.slice(6)] = v;
      else key[k] = v;
    }
    return { key: key as unknown as ApiKey, owner: owner as unknown as User };
  }

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
