import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/database.ts';
import { DbThrottle } from './throttle.ts';

let database: TestDatabase;
let db: Db;
let throttle: DbThrottle;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url);
  await migrateToLatest(db);
  throttle = new DbThrottle(db.db);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('DbThrottle', () => {
  it('gives each of 40 parallel hits its own count', async () => {
    const hits = await Promise.all(Array.from({ length: 40 }, () => throttle.hit('parallel', 60_000)));
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    for (const h of hits) expect(h.retryAfter).toBeGreaterThan(0);
  });

  it('starts an ended window over at 1, and undo takes back one hit', async () => {
    await throttle.hit('ended', 60_000);
    await throttle.hit('ended', 60_000);
    await db.db
      .updateTable('rate_limits')
      .set({ reset_at: Date.now() - 1 })
      .where('key', '=', 'ended')
      .execute();
    expect((await throttle.hit('ended', 60_000)).hits).toBe(1);
    expect((await throttle.hit('ended', 60_000)).hits).toBe(2);
    await throttle.undo('ended');
    expect((await throttle.peek('ended')).hits).toBe(1);
    await throttle.clear('ended');
    expect((await throttle.peek('ended')).hits).toBe(0);
  });
});
