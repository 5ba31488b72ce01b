import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../test-support/database.ts';
import { listParams, page, type ListSpec } from './listing.ts';

let database: TestDatabase;
let db: Db;

const SPEC: ListSpec = {
  filters: { short: { column: 'short' } },
  sorts: { short: 'short' },
  search: ['short', 'long'],
};

async function shorts(query: Record<string, unknown>, spec: ListSpec = SPEC): Promise<string[]> {
  const params = listParams(query, spec);
  const { rows, total } = await page(db.db.selectFrom('locations').selectAll(), params, 'locations.id');
  expect(total).toBe(rows.length);
  return rows.map((r) => r.short);
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url);
  await migrateToLatest(db);
  const at = new Date().toISOString();
  await db.db
    .insertInto('locations')
    .values(
      [
        { short: 'de-fra', long: 'Frankfurt, Germany' },
        { short: 'us-east', long: 'Ashburn (100%_sure)' },
        { short: 'it-GERMANY', long: null },
        { short: 'nl-ams', long: 'Amsterdam' },
      ].map((l) => ({ ...l, created_at: at, updated_at: at })),
    )
    .execute();
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('search in application lists', () => {
  it('matches a substring of any search column, ignoring case', async () => {
    expect(await shorts({ search: 'germany', sort: 'short' })).toEqual(['de-fra', 'it-GERMANY']);
    expect(await shorts({ search: 'AMS' })).toEqual(['nl-ams']);
  });

  it('treats %, _ and \\ as themselves, and a NULL column as no match', async () => {
    expect(await shorts({ search: '100%_' })).toEqual(['us-east']);
    expect(await shorts({ search: '%' })).toEqual(['us-east']);
    expect(await shorts({ search: '_' })).toEqual(['us-east']);
    expect(await shorts({ search: '\\' })).toEqual([]);
  });

  it('ignores blank text and lists without search columns', async () => {
    expect(await shorts({ search: '   ' })).toHaveLength(4);
    expect(await shorts({ search: 'ams' }, { filters: {}, sorts: {} })).toHaveLength(4);
    expect(listParams({ search: ' ams ' }, SPEC).search?.text).toBe('ams');
  });

  it('combines with filters (AND) and sorts', async () => {
    expect(await shorts({ search: 'a', 'filter[short]': 'e', sort: '-short' })).toEqual([
      'us-east',
      'it-GERMANY',
      'de-fra',
    ]);
    expect(await shorts({ search: 'frankfurt', 'filter[short]': 'us' })).toEqual([]);
  });

  it('accepts SQL expressions (e.g. a related row) as search columns', async () => {
    const spec: ListSpec = {
      ...SPEC,
      search: [sql`(select l2.long from locations l2 where l2.id = locations.id)`],
    };
    expect(await shorts({ search: 'ashburn' }, spec)).toEqual(['us-east']);
  });

  it('counts all matches while paging', async () => {
    const params = listParams({ search: 'e', per_page: '1', page: '2', sort: 'short' }, SPEC);
    const { rows, total } = await page(db.db.selectFrom('locations').selectAll(), params, 'locations.id');
    expect(total).toBe(4);
    expect(rows.map((r) => r.short)).toEqual(['it-GERMANY']);
  });
});
