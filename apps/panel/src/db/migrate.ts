import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './client.ts';
import { MIGRATIONS } from './migrations/index.ts';

/**
 * Runs pending migrations. Kysely's migrator takes a lock first (an advisory lock on PostgreSQL), so
 * several panels starting together migrate once.
 */
export async function migrateToLatest({ db, dialect }: Db): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(MIGRATIONS).map(([name, m]): [string, Migration] => [
          name,
          { up: (conn) => m.up({ db: conn, dialect }) },
        ]),
      ),
  };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
