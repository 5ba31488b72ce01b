import type { Database } from '../../../api/databases.ts';

/**
 * The JDBC-style connection string the details modal offers to copy:
 * `jdbc:mysql://user:password@host:port/database`, the password left out when it is not shown.
 * User and password are URL-encoded (generated passwords hold `@`, `+`, `=` …).
 */
export function jdbcConnectionString(database: Database): string {
  const credentials =
    encodeURIComponent(database.username) +
    (database.password !== undefined ? `:${encodeURIComponent(database.password)}` : '');
  return `jdbc:mysql://${credentials}@${database.connectionString}/${database.name}`;
}
