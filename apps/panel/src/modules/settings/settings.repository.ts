import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

/** Panel-wide settings an admin can change at run time (key → JSON value). */
export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get<T>(key: string, fallback: T): Promise<T> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return fallback;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return fallback;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
      .execute();
  }
}
