import { sql } from 'kysely';
import type { PanelMigration } from './schema-helpers.ts';

/** Every table a client server-list answer is built from (servers, their relations, the caller). */
export const SERVER_LIST_SOURCES = [
  'servers',
  'allocations',
  'server_variables',
  'eggs',
  'egg_variables',
  'nodes',
  'locations',
  'subusers',
  'users',
] as const;

/**
 * A counter the database itself bumps, in the writing transaction, on any change to what a client
 * server list shows. A panel may reuse a list answer it built while the counter is unchanged: the
 * triggers see writes from every panel sharing the database, so no panel serves a stale list, and
 * the counter becomes visible only when the write commits.
 */
export const serverListGeneration: PanelMigration = {
  async up({ db, dialect }) {
    await db.schema
      .createTable('change_generations')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`INSERT INTO change_generations (name, value) VALUES ('server_list', 0)`.execute(db);
    const bump = sql.raw(`UPDATE change_generations SET value = value + 1 WHERE name = 'server_list'`);
    if (dialect === 'postgres') {
      await sql`CREATE FUNCTION bump_server_list_generation() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${bump}; RETURN NULL; END $$`.execute(db);
      for (const table of SERVER_LIST_SOURCES) {
        // Once per statement: a bulk update costs one bump, not one per row.
        await sql`CREATE TRIGGER ${sql.raw(`${table}_server_list_generation`)}
          AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_server_list_generation()`.execute(db);
      }
      return;
    }
    for (const table of SERVER_LIST_SOURCES) {
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        const name = sql.raw(`${table}_server_list_${event.toLowerCase()}`);
        await sql`CREATE TRIGGER ${name} AFTER ${sql.raw(event)} ON ${sql.table(table)}
          BEGIN ${bump}; END`.execute(db);
      }
    }
  },
};
