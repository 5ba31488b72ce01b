import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types.ts';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  close: () => Promise<void>;
}

// PostgreSQL returns int8 (counts, sums) as strings by default; every such value here fits a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Opens the database a URL names: `sqlite:<file>` (or `:memory:`) or `postgres://…`. */
export function openDatabase(url: string): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/u, '');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server ends (restart, failover, a dropped database) is replaced on next
  // use; unhandled, its error event would take the whole panel down.
  pool.on('error', (err) => {
    process.emitWarning(`PostgreSQL connection closed: ${err.message}`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; compiling SQL is most of the cost of a small SQLite query, and
 * the panel runs the same few hundred statements over and over. Statements run synchronously, so
 * one cached statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database, max = 1000): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver) as unknown;
      return (sql: string) => {
        let stmt = cache.get(sql);
        if (!stmt) {
          if (cache.size >= max) cache.delete(cache.keys().next().value as string);
          stmt = prepare(sql);
          cache.set(sql, stmt);
        }
        return stmt;
      };
    },
  });
}
