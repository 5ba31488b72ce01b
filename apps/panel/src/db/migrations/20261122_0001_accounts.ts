import type { PanelMigration } from './schema-helpers.ts';
import { notNull, withId, zero } from './schema-helpers.ts';

/** Users, sessions, API keys, two-factor recovery, password resets, SSH keys, activity, settings. */
export const accounts: PanelMigration = {
  async up({ db, dialect }) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('external_id', 'varchar(191)', (c) => c.unique())
      .addColumn('username', 'varchar(191)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
      .addColumn('name_first', 'varchar(191)', notNull)
      .addColumn('name_last', 'varchar(191)', notNull)
      .addColumn('password', 'text', notNull)
      .addColumn('language', 'varchar(5)', (c) => c.notNull().defaultTo('en'))
      .addColumn('root_admin', 'integer', zero)
      .addColumn('use_totp', 'integer', zero)
      .addColumn('totp_secret', 'text')
      .addColumn('totp_authenticated_at', 'varchar(32)')
      .addColumn('totp_last_step', 'integer')
      .addColumn('gravatar', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('csrf_token', 'varchar(64)', notNull)
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('ip', 'varchar(45)')
      .addColumn('user_agent', 'text')
      .addColumn('last_activity', 'varchar(32)', notNull)
      .addColumn('expires_at', 'varchar(32)', notNull)
      .addColumn('created_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

    await withId(db.schema.createTable('api_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key_type', 'integer', notNull)
      .addColumn('identifier', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('token_hash', 'varchar(64)', notNull)
      .addColumn('memo', 'text', notNull)
      .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('r_servers', 'integer', zero)
      .addColumn('r_nodes', 'integer', zero)
      .addColumn('r_allocations', 'integer', zero)
      .addColumn('r_users', 'integer', zero)
      .addColumn('r_locations', 'integer', zero)
      .addColumn('r_nests', 'integer', zero)
      .addColumn('r_eggs', 'integer', zero)
      .addColumn('r_database_hosts', 'integer', zero)
      .addColumn('r_server_databases', 'integer', zero)
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

    await withId(db.schema.createTable('recovery_tokens'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token', 'text', notNull)
      .addColumn('created_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('recovery_tokens_user_id').on('recovery_tokens').column('user_id').execute();

    await withId(db.schema.createTable('password_resets'), dialect)
      .addColumn('email', 'varchar(191)', notNull)
      .addColumn('token_hash', 'varchar(64)', notNull)
      .addColumn('created_at', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('password_resets_email').on('password_resets').column('email').execute();

    await withId(db.schema.createTable('user_ssh_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(191)', notNull)
      .addColumn('fingerprint', 'varchar(191)', notNull)
      .addColumn('public_key', 'text', notNull)
      .addColumn('created_at', 'varchar(32)', notNull)
      .addColumn('updated_at', 'varchar(32)', notNull)
      .addColumn('deleted_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('user_ssh_keys_user_id').on('user_ssh_keys').column('user_id').execute();

    await withId(db.schema.createTable('activity_logs'), dialect)
      .addColumn('batch', 'varchar(36)')
      .addColumn('event', 'varchar(191)', notNull)
      .addColumn('ip', 'varchar(45)')
      .addColumn('description', 'text')
      .addColumn('actor_type', 'varchar(32)')
      .addColumn('actor_id', 'integer')
      .addColumn('api_key_id', 'integer')
      .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('timestamp', 'varchar(32)', notNull)
      .execute();
    await db.schema.createIndex('activity_logs_event').on('activity_logs').column('event').execute();

    await withId(db.schema.createTable('activity_log_subjects'), dialect)
      .addColumn('activity_log_id', 'integer', (c) =>
        c.notNull().references('activity_logs.id').onDelete('cascade'),
      )
      .addColumn('subject_type', 'varchar(32)', notNull)
      .addColumn('subject_id', 'integer', notNull)
      .execute();
    await db.schema
      .createIndex('activity_log_subjects_subject')
      .on('activity_log_subjects')
      .columns(['subject_type', 'subject_id'])
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('value', 'text', notNull)
      .execute();

    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('hits', 'integer', notNull)
      .addColumn('reset_at', 'bigint', notNull)
      .execute();
  },
};
