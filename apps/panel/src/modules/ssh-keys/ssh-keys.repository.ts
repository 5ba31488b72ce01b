import type { Kysely } from 'kysely';
import type { Database, SshKey } from '../../db/types.ts';

export class SshKeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listForUser(userId: number): Promise<SshKey[]> {
    return this.db
      .selectFrom('user_ssh_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  }

  async fingerprintExists(userId: number, fingerprint: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_ssh_keys')
      .select('id')
      .where('user_id', '=', userId)
      .where('fingerprint', '=', fingerprint)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  insert(row: Omit<SshKey, 'id'>): Promise<SshKey> {
    return this.db.insertInto('user_ssh_keys').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async softDelete(userId: number, fingerprint: string, at: string): Promise<number> {
    const res = await this.db
      .updateTable('user_ssh_keys')
      .set({ deleted_at: at })
      .where('user_id', '=', userId)
      .where('fingerprint', '=', fingerprint)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
