import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, ensureFirstAdmin } from './bootstrap.ts';
import { verifyPassword } from './lib/passwords.ts';
import { createTestDatabase, type TestDatabase } from './test-support/database.ts';

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'talon-boot-'));
});
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () =>
  bootstrap({ log: pino({ level: 'silent' }), env: { DATA_DIR: dataDir, DATABASE_URL: database.url } });

describe('first start', () => {
  it('creates one root admin on an empty database, and none on the next start', async () => {
    const first = await start();
    const admin = await ensureFirstAdmin(first);
    expect(admin).not.toBeNull();
    expect(admin!.username).toBe('admin');
    expect(admin!.password.length).toBeGreaterThanOrEqual(16);
    const stored = await first.repositories.users.findByLogin('admin');
    expect(stored).toMatchObject({ root_admin: 1 });
    expect(await verifyPassword(stored!.password, admin!.password)).toBe(true);
    await first.db.close();

    // A restart on the same database: data kept, no new admin, no password printed.
    const second = await start();
    expect(await ensureFirstAdmin(second)).toBeNull();
    expect(await second.repositories.users.count()).toBe(1);
    expect((await second.repositories.users.findByLogin('admin'))!.password).toBe(stored!.password);
    await second.db.close();
  });
});
