import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { AppContext } from '../context.ts';
import type { DatabaseHostWithNodes } from '../modules/databases/database-hosts.repository.ts';
import { databaseServices } from '../modules/databases/databases.wiring.ts';
import type { HostCredentials } from '../modules/databases/engines/index.ts';

/**
 * Real database hosts for tests: the MariaDB (or MySQL) server at 127.0.0.1:3306 and the
 * PostgreSQL server at 127.0.0.1:5432 of this machine.
 *
 * MariaDB: TEST_MYSQL_URL (`.ci/run` exports a dedicated admin user's) or, without it, the
 * `talon_test` admin user made here with root (empty password, as on this machine).
 * PostgreSQL: TEST_POSTGRES_URL (a superuser), default postgres:postgres.
 */
const FALLBACK_USER = 'talon_test';
const FALLBACK_PASSWORD = 'talon-test-admin';

function fromUrl(url: string, defaultPort: number): HostCredentials {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : defaultPort,
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
}

let mysqlReady: Promise<HostCredentials> | undefined;

/** The admin account of the test MariaDB host. */
export function mysqlAdmin(): Promise<HostCredentials> {
  mysqlReady ??= (async () => {
    if (process.env.TEST_MYSQL_URL) return fromUrl(process.env.TEST_MYSQL_URL, 3306);
    const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        await root.query('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', [
          FALLBACK_USER,
          host,
          FALLBACK_PASSWORD,
        ]);
        await root.query('GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [FALLBACK_USER, host]);
      }
    } finally {
      await root.end();
    }
    return { host: '127.0.0.1', port: 3306, username: FALLBACK_USER, password: FALLBACK_PASSWORD };
  })();
  return mysqlReady;
}

/** The admin account of the test PostgreSQL host. */
export function postgresAdmin(): HostCredentials {
  return fromUrl(
    process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    5432,
  );
}

const SYSTEM = { userId: null, apiKeyId: null, ip: null };

/**
 * Registers a MariaDB host and a PostgreSQL host on `panel` (through the service, so the panel's
 * connection check runs), serving `nodeIds`.
 */
export async function registerDatabaseHosts(
  ctx: AppContext,
  nodeIds: number[] = [],
): Promise<{ mysql: DatabaseHostWithNodes; postgresql: DatabaseHostWithNodes }> {
  const { hosts } = databaseServices({ ...ctx, activity: ctx.services.activity });
  const suffix = Math.random().toString(36).slice(2, 8);
  const my = await mysqlAdmin();
  const pgAdmin = postgresAdmin();
  return {
    mysql: await hosts.create({ name: `mariadb-${suffix}`, ...my, node_ids: nodeIds }, SYSTEM),
    postgresql: await hosts.create(
      { name: `postgresql-${suffix}`, engine: 'postgresql', ...pgAdmin, node_ids: nodeIds },
      SYSTEM,
    ),
  };
}

/** A database name no other test run uses on the shared hosts (letters and digits). */
export function uniqueDatabaseName(prefix = 'db'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Connects to MariaDB as a server database's user; resolves the connection or rejects. */
export function connectMysql(c: { username: string; password: string; database: string }) {
  return mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: c.username,
    password: c.password,
    database: c.database,
    connectTimeout: 5_000,
  });
}

/** Connects to PostgreSQL as a server database's user. */
export async function connectPostgres(c: { username: string; password: string; database: string }) {
  const admin = postgresAdmin();
  const client = new pg.Client({
    host: admin.host,
    port: admin.port,
    user: c.username,
    password: c.password,
    database: c.database,
    connectionTimeoutMillis: 5_000,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Connects to the MariaDB test host as its administrator (no database selected). */
export async function connectMysqlAdmin() {
  const admin = await mysqlAdmin();
  return mysql.createConnection({
    host: admin.host,
    port: admin.port,
    user: admin.username,
    password: admin.password,
  });
}

/** Whether a database exists on the MariaDB test host. */
export async function mysqlDatabaseExists(name: string): Promise<boolean> {
  const c = await connectMysqlAdmin();
  try {
    const [rows] = await c.query(
      'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [name],
    );
    return (rows as unknown[]).length > 0;
  } finally {
    await c.end();
  }
}

/** Whether a database exists on the PostgreSQL test host. */
export async function postgresDatabaseExists(name: string): Promise<boolean> {
  const admin = postgresAdmin();
  const c = new pg.Client({
    host: admin.host,
    port: admin.port,
    user: admin.username,
    password: admin.password,
    database: 'postgres',
  });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

/**
 * Whether `password` is the PostgreSQL role's password, checked against its stored SCRAM-SHA-256
 * verifier: this machine's pg_hba.conf trusts 127.0.0.1, so a login would accept any password.
 */
export async function postgresPasswordMatches(username: string, password: string): Promise<boolean> {
  const admin = postgresAdmin();
  const c = new pg.Client({
    host: admin.host,
    port: admin.port,
    user: admin.username,
    password: admin.password,
    database: 'postgres',
  });
  await c.connect();
  try {
    const { rows } = await c.query<{ rolpassword: string | null }>(
      'SELECT rolpassword FROM pg_authid WHERE rolname = $1',
      [username],
    );
    const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/u.exec(rows[0]?.rolpassword ?? '');
    if (!m) return false;
    const [, iterations, salt, storedKey] = m as unknown as [string, string, string, string];
    const salted = pbkdf2Sync(password, Buffer.from(salt, 'base64'), Number(iterations), 32, 'sha256');
    const clientKey = createHmac('sha256', salted).update('Client Key').digest();
    return createHash('sha256').update(clientKey).digest('base64') === storedKey;
  } finally {
    await c.end();
  }
}
