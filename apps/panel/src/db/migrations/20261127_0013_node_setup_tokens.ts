import type { PanelMigration } from './schema-helpers.ts';
import { notNull, withId } from './schema-helpers.ts';

/**
 * One-line node setup (issue 16): short-lived, single-use tokens a daemon's `configure` command
 * trades for its node's configuration. Only the SHA-256 of a token is stored; redeeming deletes
 * the row, so a token works once.
 */
export const nodeSetupTokens: PanelMigration = {
  async up({ db, dialect }) {
    await withId(db.schema.createTable('node_setup_tokens'), dialect)
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('expires_at', 'varchar(32)', notNull)
      .addColumn('created_at', 'varchar(32)', notNull)
      .execute();
  },
};
