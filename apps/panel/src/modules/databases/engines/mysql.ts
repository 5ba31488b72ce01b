import { randomAlnum } from '../../../lib/crypto.ts';
import mysql from 'mysql2/promise';
import {
  CONNECT_TIMEOUT_MS,
  DatabaseHostError,
  type DatabaseOnHost,
  type EngineDriver,
  type HostCredentials,
  unreachable,
} from './engine.ts';

/** Server errors that mean "the account may not do this" (1044 db access, 1142/1227 privileges, 1410 grant). */
const PRIVILEGE = new Set([1044, 1142, 1227, 1410]);

/** A backtick-quoted identifier; a `.` stays part of the name (no `db`.`table` splitting). */
function quoted(name: string): string {
  return mysql.escapeId(name, true);
}

/** The database name as a GRANT target: `_` and `%` are wildcards there, so they are escaped. */
function grantTarget(database: string): string {
  return quoted(database.replace(/[\\_%]/gu, '\\$&'));
}

function classify(e: unknown, host: HostCredentials): DatabaseHostError {
  const err = e as { code?: string; errno?: number; message?: string };
  const cannotReach = unreachable(host, err.code);
  if (cannotReach) return cannotReach;
  if (err.errno === 1045 || err.errno === 1130) {
    return new DatabaseHostError(
      'access_denied',
      `The database host ${host.host}:${host.port} denied access to "${host.username}": check the username, password and the host the panel connects from.`,
    );
  }
  if (err.errno !== undefined && PRIVILEGE.has(err.errno)) {
    return new DatabaseHostError(
      'missing_privilege',
      `"${host.username}" may not create databases, users or grants on ${host.host}:${host.port} (${err.message ?? ''}): it needs ALL PRIVILEGES WITH GRANT OPTION and CREATE USER.`,
    );
  }
  return new DatabaseHostError(
    'other',
    `The database host ${host.host}:${host.port} failed: ${err.message ?? String(e)}`,
  );
}

/** MySQL 8 and MariaDB 10.6+, through mysql2 (one short-lived connection per operation). */
export class MysqlDriver implements EngineDriver {
  readonly engine = 'mysql' as const;

  private async run<T>(host: HostCredentials, work: (c: mysql.Connection) => Promise<T>): Promise<T> {
    let connection: mysql.Connection;
    try {
      connection = await mysql.createConnection({
        host: host.host,
        port: host.port,
        user: host.username,
        password: host.password,
        connectTimeout: CONNECT_TIMEOUT_MS,
        multipleStatements: false,
      });
    } catch (e) {
      throw classify(e, host);
    }
    try {
      return await work(connection);
    } catch (e) {
      throw classify(e, host);
    } finally {
      await connection.end().catch(() => connection.destroy());
    }
  }

  async check(host: HostCredentials): Promise<void> {
    const probe: DatabaseOnHost = {
      database: `talon_check_${randomAlnum(8)}`,
      username: `talon_check_${randomAlnum(8)}`,
      remote: '127.0.0.1',
      maxConnections: 1,
    };
    await this.run(host, async (c) => {
      try {
        await this.createDatabaseOn(c, probe);
        await this.createUserOn(c, probe, randomAlnum(24));
      } finally {
        await c.query('DROP USER IF EXISTS ?@?', [probe.username, probe.remote]).catch(() => undefined);
        await c.query(`DROP DATABASE IF EXISTS ${quoted(probe.database)}`).catch(() => undefined);
      }
    });
  }

  create(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void> {
    return this.run(host, async (c) => {
      let made: 'nothing' | 'database' | 'user' = 'nothing';
      try {
        await this.createDatabaseOn(c, db);
        made = 'database';
        await this.createUserOnly(c, db, password);
        made = 'user';
        await this.grantOn(c, db);
      } catch (e) {
        if (made === 'user')
          await c.query('DROP USER IF EXISTS ?@?', [db.username, db.remote]).catch(() => undefined);
        if (made !== 'nothing')
          await c.query(`DROP DATABASE IF EXISTS ${quoted(db.database)}`).catch(() => undefined);
        throw e;
      }
    });
  }

  async setPassword(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void> {
    await this.run(host, (c) =>
      c.query('ALTER USER ?@? IDENTIFIED BY ?', [db.username, db.remote, password]),
    );
  }

  async drop(host: HostCredentials, db: DatabaseOnHost): Promise<void> {
    await this.run(host, async (c) => {
      await c.query('DROP USER IF EXISTS ?@?', [db.username, db.remote]);
      await c.query(`DROP DATABASE IF EXISTS ${quoted(db.database)}`);
    });
  }

  private async createDatabaseOn(c: mysql.Connection, db: DatabaseOnHost): Promise<void> {
    await c.query(
      `CREATE DATABASE ${quoted(db.database)} DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  }

  private async createUserOn(c: mysql.Connection, db: DatabaseOnHost, password: string): Promise<void> {
    await this.createUserOnly(c, db, password);
    await this.grantOn(c, db);
  }

  private async createUserOnly(c: mysql.Connection, db: DatabaseOnHost, password: string): Promise<void> {
    await c.query(`CREATE USER ?@? IDENTIFIED BY ? WITH MAX_USER_CONNECTIONS ${limitOf(db)}`, [
      db.username,
      db.remote,
      password,
    ]);
  }

  private async grantOn(c: mysql.Connection, db: DatabaseOnHost): Promise<void> {
    await c.query(`GRANT ALL PRIVILEGES ON ${grantTarget(db.database)}.* TO ?@?`, [db.username, db.remote]);
  }
}

/** A whole number of connections (0 = unlimited), safe to write into the statement. */
function limitOf(db: DatabaseOnHost): number {
  return Math.max(0, Math.trunc(db.maxConnections));
}
