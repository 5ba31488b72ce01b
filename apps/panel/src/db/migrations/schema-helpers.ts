import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../client.ts';

/** What every migration receives: the connection and which database it is talking to. */
export interface MigrationContext {
  db: Kysely<unknown>;
  dialect: Dialect;
}

export interface PanelMigration {
  up: (ctx: MigrationContext) => Promise<void>;
}

/** An auto-incrementing integer primary key on either database. */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
export const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
