import type { Kysely } from 'kysely';
import type { Database, Session } from '../../db/types.ts';

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(id: string): Promise<Session | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Session): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** Writes the whole row, replacing one with the same id (an expired row not swept yet). */
  async put(row: Session): Promise<void> {
    const { id: _id, ...rest } = row;
    await this.db
      .insertInto('sessions')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }

  async update(id: string, values: Partial<Omit<Session, 'id'>>): Promise<void> {
    await this.db.updateTable('sessions').set(values).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Signs a user out everywhere but `keepId` (password change). */
  async deleteOthersOfUser(userId: number, keepId: string | null): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepId) q = q.where('id', '!=', keepId);
    await q.execute();
  }

  async deleteExpired(nowIso: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<', nowIso).execute();
  }
}
