import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, type Res, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { mailText, startSmtpServer } from '../../test-support/smtp.ts';
import {
  applicationClient,
  clientKeyClient,
  FULL,
  insertNode,
  insertServer,
  READ,
  UTC_ATOM,
} from '../application/testing.ts';

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: User;
let api: TestClient;
/** the root admin's own session: what may grant root admin rights */
let session: TestClient;

const USER_KEYS = [
  'id',
  'external_id',
  'uuid',
  'username',
  'email',
  'first_name',
  'last_name',
  'language',
  'root_admin',
  '2fa',
  'created_at',
  'updated_at',
];

let seq = 0;
function body(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    email: `person${seq}@example.com`,
    username: `person${seq}`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    ...overrides,
  };
}

const patch = (c: TestClient, path: string, b: unknown) => c.request('PATCH', path, b);

function details(res: Res) {
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
}

async function mailsTo(email: string) {
  for (let i = 0; i < 100 && !smtp.mails.some((m) => m.to.includes(email)); i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return smtp.mails.filter((m) => m.to.includes(email)).map((m) => mailText(m.raw));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  panel = await startTestPanel({
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtp.port),
    MAIL_ENCRYPTION: 'none',
  });
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_users: FULL, r_nodes: FULL });
  session = await panel.signedIn(admin);
});
afterAll(async () => {
  await panel.close();
  await smtp.close();
});

describe('access to /api/application/users', () => {
  it('needs credentials (401)', async () => {
    const res = await new TestClient(panel.url).get('/api/application/users');
    expectError(res, 401, 'AuthenticationException', 'Unauthenticated.');
  });

  it('refuses keys of non-admins (403)', async () => {
    const owner = await panel.createUser();
    for (const client of [
      await applicationClient(panel, owner, { r_users: FULL }),
      await clientKeyClient(panel, owner),
    ]) {
      const res = await client.get('/api/application/users');
      expect(res.status).toBe(403);
      expect(firstError(res).detail).toBe('This account does not have permission to access the API.');
    }
  });

  it('checks the r_users bits of application keys: none, read-only writing', async () => {
    const none = await applicationClient(panel, admin, { r_nodes: FULL });
    const denied = await none.get('/api/application/users');
    expectError(denied, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    const readOnly = await applicationClient(panel, admin, { r_users: READ });
    expect((await readOnly.get('/api/application/users')).status).toBe(200);
    for (const res of [
      await readOnly.post('/api/application/users', body()),
      await patch(readOnly, `/api/application/users/${admin.id}`, body()),
      await readOnly.delete(`/api/application/users/${admin.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(firstError(res).detail).toBe('This action is unauthorized.');
    }
    // Bit 2 alone allows writing but not reading.
    const writeOnly = await applicationClient(panel, admin, { r_users: 2 });
    expect((await writeOnly.get('/api/application/users')).status).toBe(403);
    expect((await writeOnly.post('/api/application/users', body())).status).toBe(201);
  });

  it('gives root admins full access through client keys and sessions', async () => {
    expect((await (await clientKeyClient(panel, admin)).get('/api/application/users')).status).toBe(200);
    const session = await panel.signedIn(admin);
    expect((await session.get(`/api/application/users/${admin.id}`)).status).toBe(200);
    expect((await session.post('/api/application/users', body())).status).toBe(201);
  });

  it('answers unknown application routes with 404 after authentication', async () => {
    expect((await new TestClient(panel.url).get('/api/application/nope')).status).toBe(401);
    const res = await api.get('/api/application/nope');
    expect(res.status).toBe(404);
    expect(firstError(res).detail).toBe('The route api/application/nope could not be found.');
  });

  it('answers a known application route with another method 405 with Allow, after authentication', async () => {
    expect((await new TestClient(panel.url).request('PATCH', '/api/application/users')).status).toBe(401);
    const res = await api.request('PATCH', '/api/application/users', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(firstError(res)).toEqual({
      code: 'MethodNotAllowedHttpException',
      status: '405',
      detail:
        'The PATCH method is not supported for route api/application/users. Supported methods: GET, HEAD, POST.',
    });
  });
});

describe('GET /api/application/users', () => {
  it('lists users with the application schema and pagination', async () => {
    const res = await api.get('/api/application/users?per_page=1');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data).toHaveLength(1);
    const [first] = res.body.data;
    expect(first.object).toBe('user');
    expect(Object.keys(first.attributes)).toEqual(USER_KEYS);
    const { pagination } = res.body.meta;
    expect(Object.keys(pagination)).toEqual([
      'total',
      'count',
      'per_page',
      'current_page',
      'total_pages',
      'links',
    ]);
    expect(pagination.count).toBe(1);
    expect(pagination.per_page).toBe(1);
    expect(pagination.total).toBeGreaterThanOrEqual(2);
    expect(pagination.links.next).toBe(`${panel.url}/api/application/users?page=2`);
    expect(pagination.links.previous).toBeUndefined();
    const page2 = await api.get('/api/application/users?per_page=1&page=2');
    expect(page2.body.meta.pagination.links.previous).toBe(`${panel.url}/api/application/users?page=1`);
    expect((await api.get('/api/application/users')).body.meta.pagination.per_page).toBe(50);
  });

  it('renders the admin with booleans and UTC timestamps', async () => {
    const res = await api.get(`/api/application/users/${admin.id}`);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('user');
    expect(res.body.meta).toBeUndefined();
    const a = res.body.attributes;
    expect(a).toMatchObject({
      id: admin.id,
      uuid: admin.uuid,
      username: admin.username,
      root_admin: true,
      '2fa': false,
    });
    expect(a.created_at).toMatch(UTC_ATOM);
    expect(a.updated_at).toMatch(UTC_ATOM);
  });

  it('filters partially and case-insensitively, OR-ing comma-separated values', async () => {
    await api.post(
      '/api/application/users',
      body({ email: 'Filter_One@Example.org', username: 'filterone' }),
    );
    await api.post(
      '/api/application/users',
      body({ email: 'filter.two@example.org', username: 'filtertwo', external_id: 'ext-77' }),
    );
    const byEmail = await api.get('/api/application/users?filter[email]=FILTER');
    expect(byEmail.body.data.map((u: any) => u.attributes.username).sort()).toEqual([
      'filterone',
      'filtertwo',
    ]);
    // `_` is a literal character, not a one-character wildcard.
    const literal = await api.get('/api/application/users?filter[email]=filter_');
    expect(literal.body.data.map((u: any) => u.attributes.username)).toEqual(['filterone']);
    const either = await api.get('/api/application/users?filter[username]=filterone,filtertwo');
    expect(either.body.meta.pagination.total).toBe(2);
    const ext = await api.get('/api/application/users?filter[external_id]=xt-7');
    expect(ext.body.data.map((u: any) => u.attributes.username)).toEqual(['filtertwo']);
  });

  it('sorts by id and uuid, descending with a minus', async () => {
    const asc = (await api.get('/api/application/users?sort=id')).body.data.map((u: any) => u.attributes.id);
    const desc = (await api.get('/api/application/users?sort=-id')).body.data.map(
      (u: any) => u.attributes.id,
    );
    expect(desc).toEqual([...asc].reverse());
    const uuids = (await api.get('/api/application/users?sort=uuid')).body.data.map(
      (u: any) => u.attributes.uuid,
    );
    expect(uuids).toEqual([...uuids].sort());
  });

  it('refuses unknown filters and sorts with 400', async () => {
    const filter = await api.get('/api/application/users?filter[password]=x');
    expectError(
      filter,
      400,
      'InvalidFilterQuery',
      'Requested filter(s) `password` are not allowed. Allowed filter(s) are `email, uuid, username, external_id`.',
    );
    const sort = await api.get('/api/application/users?sort=password');
    expectError(
      sort,
      400,
      'InvalidSortQuery',
      'Requested sort(s) `password` is not allowed. Allowed sort(s) are `id, uuid, username, email, created_at`.',
    );
  });

  it('answers 404 for unknown and non-numeric ids', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await api.get(`/api/application/users/${id}`);
      expectError(
        res,
        404,
        'NotFoundHttpException',
        'The requested resource could not be found on the server.',
      );
    }
  });
});

describe('POST /api/application/users', () => {
  it('creates a user: 201, meta.resource, lower-cased names, and an activity entry', async () => {
    const res = await session.post(
      '/api/application/users',
      body({
        email: 'New.Person@Example.com',
        username: 'New.Person',
        external_id: 'whmcs-1',
        root_admin: true,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.object).toBe('user');
    expect(Object.keys(res.body.attributes)).toEqual(USER_KEYS);
    const a = res.body.attributes;
    expect(a).toMatchObject({
      email: 'new.person@example.com',
      username: 'new.person',
      external_id: 'whmcs-1',
      first_name: 'Ada',
      last_name: 'Lovelace',
      language: 'en',
      root_admin: true,
      '2fa': false,
    });
    expect(res.body.meta).toEqual({ resource: `${panel.url}/api/application/users/${a.id}` });
    const fetched = await api.get(new URL(res.body.meta.resource).pathname);
    expect(fetched.body.attributes).toEqual(a);
    const logged = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select(['event', 'actor_id', 'api_key_id'])
      .where('event', '=', 'user:create')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged.actor_id).toBe(admin.id);
    expect(logged.api_key_id).toBeNull();
  });

  it('reports every missing field with the reference labels', async () => {
    const res = await api.post('/api/application/users', {});
    expect(res.status).toBe(422);
    expect(details(res)).toEqual([
      'email|required|The email field is required.',
      'username|required|The username field is required.',
      'first_name|required|The first name field is required.',
      'last_name|required|The last name field is required.',
    ]);
  });

  it('reports each invalid field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email' }, 'email|email|The email must be a valid email address.'],
      [
        { email: `${'a'.repeat(186)}@x.com` },
        'email|between|The email must be between 1 and 191 characters.',
      ],
      [
        { username: 'ab' },
        'username|p_username|The username must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
      ],
      [
        { username: '-bad-' },
        'username|p_username|The username must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
      ],
      [{ first_name: 5 }, 'first_name|string|The first name must be a string.'],
      [
        { last_name: 'x'.repeat(192) },
        'last_name|between|The last name must be between 1 and 191 characters.',
      ],
      [
        { external_id: 'x'.repeat(192) },
        'external_id|max|The Third Party Identifier may not be greater than 191 characters.',
      ],
      [{ password: 12345678 }, 'password|string|The password must be a string.'],
      [{ language: 'xx' }, 'language|in|The selected language is invalid.'],
      [
        { root_admin: 'true' },
        'root_admin|boolean|The Root Administrator Status field must be true or false.',
      ],
    ];
    for (const [overrides, expected] of cases) {
      const res = await api.post('/api/application/users', body(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(details(res)).toEqual([expected]);
    }
  });

  it('refuses taken email, username and external id (unique)', async () => {
    const first = body({ external_id: 'taken-ext' });
    expect((await api.post('/api/application/users', first)).status).toBe(201);
    const res = await api.post('/api/application/users', {
      ...body(),
      email: first.email.toUpperCase(),
      username: first.username,
      external_id: 'taken-ext',
    });
    expect(res.status).toBe(422);
    expect(details(res)).toEqual([
      'external_id|unique|The Third Party Identifier has already been taken.',
      'email|unique|The email has already been taken.',
      'username|unique|The username has already been taken.',
    ]);
  });

  it('mails a password setup link when no password is given; the link sets the password', async () => {
    const b = body();
    const res = await api.post('/api/application/users', b);
    expect(res.status).toBe(201);
    const [text] = await mailsTo(b.email);
    expect(text).toContain(`Username: ${b.username}`);
    const m = /\/auth\/password\/reset\/([A-Za-z0-9]+)\?email=(\S+)/u.exec(text ?? '');
    expect(m).not.toBeNull();
    const client = new TestClient(panel.url);
    await client.get('/sanctum/csrf-cookie');
    const reset = await client.post('/auth/password/reset', {
      token: m![1],
      email: decodeURIComponent(m![2]!),
      password: 'my chosen password',
      password_confirmation: 'my chosen password',
    });
    expect(reset.status).toBe(200);
    const login = await new TestClient(panel.url).login(b.username, 'my chosen password');
    expect(login.status).toBe(200);
  });

  it('mails no link when a password is given, and the password works', async () => {
    const b = body({ password: 'given password 1' });
    expect((await api.post('/api/application/users', b)).status).toBe(201);
    const [text] = await mailsTo(b.email);
    expect(text).toContain('An account was created for you');
    expect(text).not.toContain('/auth/password/reset/');
    expect((await new TestClient(panel.url).login(b.email, 'given password 1')).status).toBe(200);
  });
});

describe('GET /api/application/users/external/{external_id}', () => {
  it('matches the external id exactly', async () => {
    await api.post('/api/application/users', body({ external_id: 'exact-match-9' }));
    const found = await api.get('/api/application/users/external/exact-match-9');
    expect(found.status).toBe(200);
    expect(found.body.attributes.external_id).toBe('exact-match-9');
    const partial = await api.get('/api/application/users/external/exact-match');
    expect(partial.status).toBe(404);
    expect(firstError(partial).detail).toBe('The requested resource could not be found on the server.');
  });
});

describe('PATCH /api/application/users/{id}', () => {
  it('re-validates required fields (a PATCH replaces the record)', async () => {
    const created = (await api.post('/api/application/users', body())).body.attributes;
    const res = await patch(api, `/api/application/users/${created.id}`, { first_name: 'Only' });
    expect(res.status).toBe(422);
    expect(details(res)).toEqual([
      'email|required|The email field is required.',
      'username|required|The username field is required.',
      'last_name|required|The last name field is required.',
    ]);
  });

  it('updates the user, keeping its own email unique-exempt, and 404s unknown ids', async () => {
    const b = body({ external_id: 'upd-1' });
    const created = (await api.post('/api/application/users', b)).body.attributes;
    const res = await patch(session, `/api/application/users/${created.id}`, {
      ...b,
      first_name: 'Grace',
      root_admin: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.attributes).toMatchObject({
      first_name: 'Grace',
      root_admin: true,
      external_id: 'upd-1',
    });
    expect(res.body.meta).toBeUndefined();
    const other = (await api.post('/api/application/users', body())).body.attributes;
    const clash = await patch(api, `/api/application/users/${created.id}`, { ...b, email: other.email });
    expect(details(clash)).toEqual(['email|unique|The email has already been taken.']);
    expect((await patch(api, '/api/application/users/999999', b)).status).toBe(404);
  });

  it('changes the password; an empty password leaves it unchanged', async () => {
    const b = body({ password: 'first password' });
    const created = (await api.post('/api/application/users', b)).body.attributes;
    expect((await patch(api, `/api/application/users/${created.id}`, { ...b, password: '' })).status).toBe(
      200,
    );
    expect((await new TestClient(panel.url).login(b.username, 'first password')).status).toBe(200);
    expect(
      (await patch(api, `/api/application/users/${created.id}`, { ...b, password: 'second password' }))
        .status,
    ).toBe(200);
    expect((await new TestClient(panel.url).login(b.username, 'first password')).status).toBe(400);
    expect((await new TestClient(panel.url).login(b.username, 'second password')).status).toBe(200);
  });
});

// Issue 23 item 6: docs/security.md promises that an API key (a billing module's, leaked or not)
// cannot make a root admin or take one over; only a root admin's own session may.
describe('root admins are made and changed only in a session', () => {
  const FORBIDDEN = {
    errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }],
  };
  const row = (id: number) =>
    panel.ctx.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const clientKey = () => clientKeyClient(panel, admin);

  async function rootAdmin() {
    const b = body({ password: 'root admin password', root_admin: true });
    const created = (await session.post('/api/application/users', b)).body.attributes;
    return { b, id: created.id as number };
  }

  it('no key creates a root admin (403, no user); a session does', async () => {
    for (const key of [api, await clientKey()]) {
      const b = body({ root_admin: true });
      expect(await key.post('/api/application/users', b)).toMatchObject({ status: 403, body: FORBIDDEN });
      expect((await api.get(`/api/application/users?filter[email]=${b.email}`)).body.data).toEqual([]);
    }
    const b = body({ root_admin: true });
    const res = await session.post('/api/application/users', b);
    expect(res.status, res.text).toBe(201);
    expect(res.body.attributes.root_admin).toBe(true);
    // A key still creates ordinary users, root_admin false spelled out or left out.
    expect((await api.post('/api/application/users', body({ root_admin: false }))).status).toBe(201);
  });

  it('no key promotes a user or demotes a root admin (403, unchanged); a session does', async () => {
    const b = body();
    const user = (await api.post('/api/application/users', b)).body.attributes;
    const before = await row(user.id);
    for (const key of [api, await clientKey()]) {
      const res = await patch(key, `/api/application/users/${user.id}`, { ...b, root_admin: true });
      expect(res).toMatchObject({ status: 403, body: FORBIDDEN });
    }
    expect(await row(user.id)).toEqual(before);
    const admin2 = await rootAdmin();
    const adminBefore = await row(admin2.id);
    const demote = await patch(api, `/api/application/users/${admin2.id}`, {
      ...admin2.b,
      root_admin: false,
    });
    expect(demote).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await row(admin2.id)).toEqual(adminBefore);
    const promoted = await patch(session, `/api/application/users/${user.id}`, { ...b, root_admin: true });
    expect(promoted.status, promoted.text).toBe(200);
    expect((await row(user.id)).root_admin).toBe(1);
  });

  it('no key changes a root admin’s password or email (403, unchanged); a session does', async () => {
    const { b, id } = await rootAdmin();
    const before = await row(id);
    for (const key of [api, await clientKey()]) {
      for (const change of [{ password: 'taken over' }, { email: `attacker${seq}@example.com` }]) {
        const res = await patch(key, `/api/application/users/${id}`, { ...b, ...change });
        expect(res, JSON.stringify(change)).toMatchObject({ status: 403, body: FORBIDDEN });
      }
    }
    expect(await row(id)).toEqual(before);
    expect((await new TestClient(panel.url).login(b.username, 'root admin password')).status).toBe(200);
    const email = `moved${seq}@example.com`;
    const ok = await patch(session, `/api/application/users/${id}`, {
      ...b,
      email,
      password: 'new one here',
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await row(id)).email).toBe(email);
  });

  it('a key may still update a root admin’s names, username and external id (not credentials)', async () => {
    const { b, id } = await rootAdmin();
    const res = await patch(api, `/api/application/users/${id}`, {
      ...b,
      email: b.email.toUpperCase(),
      username: `${b.username}x`,
      first_name: 'Grace',
      root_admin: true,
      password: '',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({ first_name: 'Grace', root_admin: true, email: b.email });
    expect((await new TestClient(panel.url).login(`${b.username}x`, 'root admin password')).status).toBe(200);
  });

  it('no key turns a root admin’s two-factor off (403, unchanged); a session does', async () => {
    const { id } = await rootAdmin();
    await panel.ctx.db.db
      .updateTable('users')
      .set({ use_totp: 1, totp_secret: 'x' })
      .where('id', '=', id)
      .execute();
    const before = await row(id);
    for (const key of [api, await clientKey()]) {
      const res = await key.delete(`/api/application/users/${id}/two-factor`);
      expect(res).toMatchObject({ status: 403, body: FORBIDDEN });
    }
    expect(await row(id)).toEqual(before);
    expect((await session.delete(`/api/application/users/${id}/two-factor`)).status).toBe(204);
    expect((await row(id)).use_totp).toBe(0);
  });
});

describe('DELETE /api/application/users/{id}', () => {
  it('deletes a user (204, empty body) and then 404s', async () => {
    const created = (await api.post('/api/application/users', body())).body.attributes;
    const res = await api.delete(`/api/application/users/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/api/application/users/${created.id}`)).status).toBe(404);
    expect((await api.delete(`/api/application/users/${created.id}`)).status).toBe(404);
  });

  it('refuses to delete a user who owns servers', async () => {
    const created = (await api.post('/api/application/users', body())).body.attributes;
    const { nodeId, allocationId } = await insertNode(panel);
    await insertServer(panel, { ownerId: created.id, nodeId, allocationId });
    const res = await api.delete(`/api/application/users/${created.id}`);
    expectError(
      res,
      400,
      'DisplayException',
      'Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.',
    );
  });
});

describe('a billing module (WHMCS) finding or creating its client', () => {
  it('follows the module’s calls and status codes', async () => {
    const whmcs = await applicationClient(panel, admin, { r_users: FULL, r_nodes: READ });
    whmcs.extraHeaders.accept = 'Application/vnd.pterodactyl.v1+json';
    const nodes = await whmcs.get('/api/application/nodes');
    expect(nodes.status).toBe(200);
    expect(typeof nodes.body.meta.pagination.count).toBe('number');

    expect((await whmcs.get('/api/application/users/external/client-42')).status).toBe(404);
    const search = await whmcs.get(
      `/api/application/users?filter[email]=${encodeURIComponent('client42@example.net')}`,
    );
    expect(search.status).toBe(200);
    expect(search.body.meta.pagination.total).toBe(0);
    const created = await whmcs.post('/api/application/users', {
      username: 'client42',
      email: 'client42@example.net',
      first_name: 'Client',
      last_name: 'FortyTwo',
      external_id: 'client-42',
    });
    expect(created.status).toBe(201);
    const id = created.body.attributes.id as number;
    const found = await whmcs.get('/api/application/users/external/client-42');
    expect(found.status).toBe(200);
    expect(found.body.attributes.id).toBe(id);

    // "Change password": GET then PATCH with the module's fields, then the client signs in.
    const current = (await whmcs.get(`/api/application/users/${id}`)).body.attributes;
    const changed = await patch(whmcs, `/api/application/users/${id}`, {
      username: current.username,
      email: current.email,
      first_name: current.first_name,
      last_name: current.last_name,
      password: 'from billing 123',
    });
    expect(changed.status).toBe(200);
    expect((await new TestClient(panel.url).login('client42@example.net', 'from billing 123')).status).toBe(
      200,
    );
  });
});
