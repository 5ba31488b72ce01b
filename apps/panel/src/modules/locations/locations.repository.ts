import type { Kysely } from 'kysely';
import type { Database, Location } from '../../db/types.ts';
import { page, type ListParams } from '../application/listing.ts';

export class LocationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(params: ListParams): Promise<{ rows: Location[]; total: number }> {
    return page(this.db.selectFrom('locations').selectAll(), params, 'locations.id');
  }

  findById(id: number): Promise<Location | undefined> {
    return this.db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByIds(ids: number[]): Promise<Location[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('locations').selectAll().where('id', 'in', ids).execute();
  }

  async shortTaken(short: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('locations').select('id').where('short', '=', short);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  insert(values: { short: string; long: string | null }, at: string): Promise<Location> {
    return this.db
      .insertInto('locations')
      .values({ ...values, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(id: number, values: { short: string; long: string | null }, at: string): Promise<void> {
    await this.db
      .updateTable('locations')
      .set({ ...values, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async hasNodes(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('nodes').select('id').where('location_id', '=', id).executeTakeFirst()) !==
      undefined
    );
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('locations').where('id', '=', id).execute();
  }
}
