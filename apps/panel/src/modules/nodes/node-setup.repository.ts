import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';

export interface SetupTokenRow {
  node_id: number;
  expires_at: string;
}

/** Setup tokens by the SHA-256 of their text; the text itself is never stored. */
export class NodeSetupRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: {
    node_id: number;
    token_hash: string;
    created_by: number | null;
    expires_at: string;
    created_at: string;
  }): Promise<void> {
    await this.db.insertInto('node_setup_tokens').values(row).execute();
  }

  /**
   * Removes the token and returns what it was for, in one statement: of two redemptions racing,
   * exactly one gets the row. Undefined when no such token exists (any more).
   */
  take(tokenHash: string): Promise<SetupTokenRow | undefined> {
    return this.db
      .deleteFrom('node_setup_tokens')
      .where('token_hash', '=', tokenHash)
      .returning(['node_id', 'expires_at'])
      .executeTakeFirst();
  }

  /** Expired tokens are of no use: cleared whenever a new one is made. */
  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('node_setup_tokens').where('expires_at', '<=', now).execute();
  }
}
