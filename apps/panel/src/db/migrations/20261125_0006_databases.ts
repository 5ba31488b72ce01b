import type { PanelMigration } from './schema-helpers.ts';
import { notNull, withId, zero } from './schema-helpers.ts';

/**
 * Database hosts an operator registers (MySQL/MariaDB, or PostgreSQL — our extension), the nodes each
 * serves, and the databases created on them for servers (reference §3.1 `server_database`).
 * Passwords are encrypted with the app key.
 */
export const databases: PanelMigration = {
  async up({ db, dialect }) {
    await withId(db.schema.createTable('database_hosts'), dialect)
      .addColumn('name', 'varchar(191)', notNull)
      .addColumn('engine', 'varchar(16)', (c) => c.notNull().defaultTo('mysql'))
      .addColumn('host', 'varchar(191)', notNull)
      .addColumn('port', 'integer', notNull)
      .addColumn('username', 'varchar(191)', notNull)
      .addColumn('password', 'text', notNull)
      .addColumn('max_databases', 'integer')
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();

    await db.schema
      .createTable('database_host_nodes')
      .addColumn('database_host_id', 'integer', (c) =>
        c.notNull().references('database_hosts.id').onDelete('cascade'),
      )
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('database_host_nodes_pk', ['database_host_id', 'node_id'])
      .execute();

    await withId(db.schema.createTable('databases'), dialect)
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id'))
      .addColumn('database_host_id', 'integer', (c) => c.notNull().references('database_hosts.id'))
      .addColumn('database', 'varchar(191)', notNull)
      .addColumn('username', 'varchar(191)', notNull)
      .addColumn('remote', 'varchar(191)', (c) => c.notNull().defaultTo('%'))
      .addColumn('password', 'text', notNull)
      .addColumn('max_connections', 'integer', zero)
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .addUniqueConstraint('databases_host_database_unique', ['database_host_id', 'database'])
      .addUniqueConstraint('databases_host_username_unique', ['database_host_id', 'username'])
      .execute();
  },
};
