import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  drop: () => Promise<void>;
}

/**
 * A fresh, empty database for one test file: a SQLite file in a temp folder, or, when TEST_DB is
 * `postgres`, a new database on the server of TEST_POSTGRES_URL (dropped afterwards).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB === 'postgres') {
    const admin = process.env.TEST_POSTGRES_URL;
    if (!admin) throw new Error('TEST_DB=postgres needs TEST_POSTGRES_URL');
    const name = `talon_test_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      dialect: 'postgres',
      drop: async () => {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'talon-db-'));
  return {
    url: `sqlite:${path.join(dir, 'panel.sqlite')}`,
    dialect: 'sqlite',
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
