import { adminUserSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, TestClient } from '../../test-support/client.ts';
import { applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// `search=` and the extra sorts of the admin lists (extensions, docs/api.md "Lists: search and sort").
let panel: TestPanel;
let api: TestClient;

type Row = { attributes: Record<string, unknown> };
const values = (res: { body: { data: Row[] } }, field: string) =>
  res.body.data.map((r) => r.attributes[field]);

beforeAll(async () => {
  panel = await startTestPanel();
  api = await applicationClient(panel);
  const users = [
    { username: 'quokka-one', email: 'first@zoo.example', first_name: 'Ada', last_name: 'Marsupial' },
    { username: 'wombat', email: 'quokka-fan@zoo.example', first_name: 'Bo', last_name: 'Digger' },
    { username: 'echidna', email: 'spiky@zoo.example', first_name: 'QUOKKA', last_name: 'Friend' },
    { username: 'platypus', email: 'duck@zoo.example', first_name: 'Cy', last_name: 'Quokkason' },
    { username: 'koala', email: 'tree@zoo.example', first_name: 'Di', last_name: 'Leaf' },
  ];
  for (const u of users) expect((await api.post('/api/application/users', u)).status).toBe(201);
  for (const l of [
    { short: 'fra-1', long: 'Frankfurt am Main' },
    { short: 'ams-1', long: 'Amsterdam' },
    { short: 'lon-1', long: null },
  ])
    expect((await api.post('/api/application/locations', l)).status).toBe(201);
  const at = new Date().toISOString();
  await panel.ctx.db.db
    .insertInto('database_hosts')
    .values(
      [
        { name: 'Main MariaDB', host: 'db1.internal' },
        { name: 'Analytics', host: 'mariadb-2.internal' },
        { name: 'Postgres', host: '10.0.0.5' },
      ].map((h) => ({
        ...h,
        engine: 'mysql',
        port: 3306,
        username: 'talon',
        password: 'not-a-real-secret',
        max_databases: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
});
afterAll(async () => {
  await panel.close();
});

describe('GET /api/application/users: search and sorts', () => {
  it('matches username, email, first or last name, ignoring case', async () => {
    const res = await api.get('/api/application/users?search=Quokka&sort=username');
    expect(res.status, res.text).toBe(200);
    expect(values(res, 'username')).toEqual(['echidna', 'platypus', 'quokka-one', 'wombat']);
    expect(res.body.meta.pagination.total).toBe(4);
    for (const row of res.body.data) adminUserSchema.strict().parse(row.attributes);
  });

  it('pages the matches and keeps the search in the links', async () => {
    const res = await api.get('/api/application/users?search=quokka&sort=-username&per_page=3&page=1');
    expect(values(res, 'username')).toEqual(['wombat', 'quokka-one', 'platypus']);
    expect(res.body.meta.pagination).toMatchObject({ total: 4, total_pages: 2 });
  });

  it('combines with filters', async () => {
    const res = await api.get('/api/application/users?search=quokka&filter[email]=zoo&filter[username]=wom');
    expect(values(res, 'username')).toEqual(['wombat']);
  });

  it('sorts by username, email and created_at, and refuses other sorts (400)', async () => {
    const byEmail = await api.get('/api/application/users?search=zoo.example&sort=email');
    expect(values(byEmail, 'email')).toEqual([
      'duck@zoo.example',
      'first@zoo.example',
      'quokka-fan@zoo.example',
      'spiky@zoo.example',
      'tree@zoo.example',
    ]);
    const newest = await api.get('/api/application/users?search=zoo.example&sort=-created_at,-id');
    expect(newest.status, newest.text).toBe(200);
    expect(values(newest, 'username')[0]).toBe('koala');
    const bad = await api.get('/api/application/users?sort=password');
    expectError(
      bad,
      400,
      'InvalidSortQuery',
      'Requested sort(s) `password` is not allowed. Allowed sort(s) are `id, uuid, username, email, created_at`.',
    );
  });

  it('treats % and _ as plain characters and matches nothing for unknown text', async () => {
    expect((await api.get('/api/application/users?search=%25')).body.data).toEqual([]);
    expect((await api.get('/api/application/users?search=_')).body.data).toEqual([]);
    expect((await api.get('/api/application/users?search=no-such-person')).body.meta.pagination.total).toBe(
      0,
    );
  });
});

describe('GET /api/application/locations: search and sort', () => {
  it('matches short or long, and sorts by short', async () => {
    expect(values(await api.get('/api/application/locations?search=AM&sort=short'), 'short')).toEqual([
      'ams-1',
      'fra-1',
    ]);
    expect(values(await api.get('/api/application/locations?sort=-short'), 'short')).toEqual([
      'lon-1',
      'fra-1',
      'ams-1',
    ]);
    expect(values(await api.get('/api/application/locations?search=lon'), 'short')).toEqual(['lon-1']);
  });
});

describe('GET /api/application/database-hosts: search', () => {
  it('matches name or host', async () => {
    const res = await api.get('/api/application/database-hosts?search=mariadb');
    expect(res.status, res.text).toBe(200);
    expect(values(res, 'name')).toEqual(['Main MariaDB', 'Analytics']);
    expect(res.body.meta.pagination.total).toBe(2);
    expect(values(await api.get('/api/application/database-hosts?search=10.0.0'), 'name')).toEqual([
      'Postgres',
    ]);
    expect(values(await api.get('/api/application/database-hosts'), 'name')).toHaveLength(3);
  });
});

describe('access to searched lists', () => {
  it('still needs credentials and the resource', async () => {
    expectError(
      await new TestClient(panel.url).get('/api/application/users?search=a'),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    const noUsers = await applicationClient(panel, { r_locations: 1 });
    expectError(
      await noUsers.get('/api/application/users?search=a'),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    expect((await noUsers.get('/api/application/locations?search=a')).status).toBe(200);
  });
});
