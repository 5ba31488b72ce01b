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

  /** The stored values of `keys` (JSON-decoded; unreadable ones left out), in one query. */
  async getMany(keys: readonly string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    if (keys.length === 0) return found;
    const rows = await this.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', keys)
      .execute();
    for (const row of rows) {
      try {
        found.set(row.key, JSON.parse(row.value));
      } catch {
        // a value not written by the panel: as if unset
      }
    }
    return found;
  }

  /** Writes `values` (undefined: deletes the key) together: a reader never sees half of a change. */
  async setMany(values: ReadonlyMap<string, unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of values) {
        if (value === undefined) {
          await trx.deleteFrom('settings').where('key', '=', key).execute();
          continue;
        }
        const json = JSON.stringify(value);
        await trx
          .insertInto('settings')
          .values({ key, value: json })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
          .execute();
      }
    });
  }
}
