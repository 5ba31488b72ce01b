import type { PanelMigration } from './schema-helpers.ts';
import { notNull, withId, zero } from './schema-helpers.ts';

/**
 * Server backups (reference §3.1 `backup`). A backup is in progress while `completed_at` is NULL and
 * failed when completed and not successful. Deleted backups keep their row (`deleted_at`): the
 * creation throttle counts them, as the reference says.
 */
export const backups: PanelMigration = {
  async up({ db, dialect }) {
    await withId(db.schema.createTable('backups'), dialect)
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('is_successful', 'integer', zero)
      .addColumn('is_locked', 'integer', zero)
      .addColumn('name', 'varchar(191)', notNull)
      /** JSON text array of ignore patterns */
      .addColumn('ignored_files', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('disk', 'varchar(16)', (c) => c.notNull().defaultTo('wings'))
      .addColumn('checksum', 'varchar(191)')
      .addColumn('bytes', 'bigint', zero)
      .addColumn('completed_at', 'varchar(32)')
      .addColumn('deleted_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('backups_server_created').on('backups').columns(['server_id', 'created_at']).execute();
  },
};
