import { sql, type Kysely } from 'kysely';
import type { Database } from './types.ts';

/**
 * Holds a parent row's write lock until the transaction ends, so that transactions which count a
 * parent's children and then insert one (a limit checked inside the insert) run one after the
 * other. A no-op update works on both databases: PostgreSQL locks the row until commit; SQLite
 * takes its single write lock (and the panel runs one SQLite transaction at a time anyway).
 */
export async function lockRow(
  trx: Kysely<Database>,
  table: 'servers' | 'database_hosts' | 'users',
  id: number,
): Promise<void> {
  await sql`UPDATE ${sql.table(table)} SET id = id WHERE id = ${id}`.execute(trx);
}
