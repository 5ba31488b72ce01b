import pg from 'pg';
import { randomAlnum } from '../../../lib/crypto.ts';
import { scramVerifier } from './scram.ts';
import {
  CONNECT_TIMEOUT_MS,
  DatabaseHostError,
  type DatabaseOnHost,
  type EngineDriver,
  type HostCredentials,
  unreachable,
} from './engine.ts';

function classify(e: unknown, host: HostCredentials): DatabaseHostError {
  const err = e as { code?: string; message?: string };
  const where = `${host.host}:${host.port}`;
  // pg reports a connect timeout as a plain Error without a code.
  const cannotReach = unreachable(
    host,
    /timeout/iu.test(err.message ?? '') ? (err.code ?? 'ETIMEDOUT') : err.code,
  );
  if (cannotReach) return cannotReach;
  if (err.code === '28P01' || err.code === '28000') {
    return new DatabaseHostError(
      'access_denied',
      `The database host ${where} denied access to "${host.username}": check the username, password and pg_hba.conf.`,
    );
  }
  if (err.code === '42501') {
    return new DatabaseHostError(
      'missing_privilege',
      `"${host.username}" may not create databases or roles on ${where} (${err.message ?? ''}): it needs CREATEDB and CREATEROLE.`,
    );
  }
  return new DatabaseHostError('other', `The database host ${where} failed: ${err.message ?? String(e)}`);
}

/**
 * PostgreSQL (our extension): one LOGIN role per database, owner of it, nobody else may connect.
 * `remote` cannot be expressed in SQL — pg_hba.conf decides where roles connect from — so it is
 * only recorded (docs/compatibility.md).
 */
export class PostgresqlDriver implements EngineDriver {
  readonly engine = 'postgresql' as const;

  private async run<T>(host: HostCredentials, work: (c: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({
      host: host.host,
      port: host.port,
      user: host.username,
      password: host.password,
      database: 'postgres',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A dropped connection later must not become an unhandled 'error' event.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (e) {
      await client.end().catch(() => undefined);
      throw classify(e, host);
    }
    try {
      return await work(client);
    } catch (e) {
      throw classify(e, host);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async check(host: HostCredentials): Promise<void> {
    const probe: DatabaseOnHost = {
      database: `talon_check_${randomAlnum(8).toLowerCase()}`,
      username: `talon_check_${randomAlnum(8).toLowerCase()}`,
      remote: '%',
      maxConnections: 1,
    };
    await this.run(host, async (c) => {
      try {
        await this.createUserOn(c, probe, randomAlnum(24));
        await this.createDatabaseOn(c, probe);
      } finally {
        await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(probe.database)}`).catch(() => undefined);
        await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(probe.username)}`).catch(() => undefined);
      }
    });
  }

  // The role owns the database, so it is made first (CREATE DATABASE … OWNER needs it).
  create(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void> {
    return this.run(host, async (c) => {
      let made: 'nothing' | 'role' | 'database' = 'nothing';
      try {
        await this.createUserOn(c, db, password);
        made = 'role';
        await c.query(
          `CREATE DATABASE ${c.escapeIdentifier(db.database)} OWNER ${c.escapeIdentifier(db.username)}`,
        );
        made = 'database';
        await c.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${c.escapeIdentifier(db.database)} FROM PUBLIC`);
      } catch (e) {
        if (made === 'database') await this.dropOn(c, db).catch(() => undefined);
        else if (made === 'role')
          await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(db.username)}`).catch(() => undefined);
        throw e;
      }
    });
  }

  async setPassword(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void> {
    await this.run(host, (c) =>
      c.query(
        `ALTER ROLE ${c.escapeIdentifier(db.username)} WITH PASSWORD ${c.escapeLiteral(scramVerifier(password))}`,
      ),
    );
  }

  async drop(host: HostCredentials, db: DatabaseOnHost): Promise<void> {
    await this.run(host, (c) => this.dropOn(c, db));
  }

  // FORCE ends the user's open sessions: a game server still connected must not block the drop.
  private async dropOn(c: pg.Client, db: DatabaseOnHost): Promise<void> {
    await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(db.database)} WITH (FORCE)`);
    await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(db.username)}`);
  }

  /**
   * Makes the role and grants it to the host's own account: `CREATE DATABASE … OWNER` needs the
   * creator to be a member of the owner, which a CREATEROLE account is not by itself (PostgreSQL
   * 15 refuses with "must be member of role"; 16 makes it an admin of the role but not a member).
   * Membership also lets it drop the database later. A superuser account needs none of this.
   */
  private async createUserOn(c: pg.Client, db: DatabaseOnHost, password: string): Promise<void> {
    const limit = db.maxConnections > 0 ? Math.trunc(db.maxConnections) : -1;
    const role = c.escapeIdentifier(db.username);
    await c.query(
      `CREATE ROLE ${role} WITH LOGIN PASSWORD ${c.escapeLiteral(scramVerifier(password))} CONNECTION LIMIT ${limit}`,
    );
    try {
      await c.query(`GRANT ${role} TO CURRENT_USER`);
    } catch (e) {
      await c.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      throw e;
    }
  }

  private async createDatabaseOn(c: pg.Client, db: DatabaseOnHost): Promise<void> {
    const name = c.escapeIdentifier(db.database);
    await c.query(`CREATE DATABASE ${name} OWNER ${c.escapeIdentifier(db.username)}`);
    await c.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${name} FROM PUBLIC`);
  }
}
