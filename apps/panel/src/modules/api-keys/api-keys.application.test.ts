import { applicationApiKeySchema, createdApplicationApiKeySchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, TestClient, type Res } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { ALL_APPLICATION_RIGHTS, clientKeyClient, everyKeyOf, UTC_ATOM } from '../application/testing.ts';

// The admin area's application API keys (docs/api.md "Application API keys"): created, listed and
// deleted by a root admin's session only, the secret shown once, and a key really limited to the
// rights it was given.

const URL_ = '/api/application/api-keys';
const NOT_ADMIN = 'This account does not have permission to access the API.';
const UNAUTHORIZED = 'This action is unauthorized.';
const NONE = {
  users: 0,
  nodes: 0,
  allocations: 0,
  locations: 0,
  nests: 0,
  eggs: 0,
  servers: 0,
  database_hosts: 0,
  server_databases: 0,
};

let panel: TestPanel;
let admin: User;
let adminClient: TestClient;
let userClient: TestClient;

const keyCount = async () =>
  Number(
    (
      await panel.ctx.db.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function expectInvalid(res: Res, field: string) {
  expect(res.status, res.text).toBe(422);
  expect(firstError(res).code).toBe('ValidationException');
  expect(firstError(res).meta?.source_field).toBe(field);
}

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  adminClient = await panel.signedIn(admin);
  userClient = await panel.signedIn(await panel.createUser());
});
afterAll(async () => {
  await panel?.close();
});

describe('a key created on the admin screen', () => {
  let identifier: string;
  let token: string;

  it('is answered once with its whole token (201)', async () => {
    const res = await adminClient.post(URL_, {
      description: 'Billing: server list',
      allowed_ips: ['127.0.0.1'],
      permissions: { servers: 1 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.object).toBe('api_key');
    const { attributes } = res.body;
    expect(attributes).toEqual({
      identifier: expect.stringMatching(/^ptla_[A-Za-z0-9]{11}$/u),
      description: 'Billing: server list',
      allowed_ips: ['127.0.0.1'],
      permissions: { ...NONE, servers: 1 },
      last_used_at: null,
      created_at: expect.stringMatching(UTC_ATOM),
    });
    expect(createdApplicationApiKeySchema.parse(res.body)).toEqual(res.body);
    identifier = attributes.identifier;
    token = res.body.meta.secret_token;
    expect(token).toMatch(new RegExp(`^${identifier}[A-Za-z0-9]{32}$`, 'u'));
  });

  it('can list servers but cannot create one nor read users', async () => {
    const key = TestClient.withKey(panel.url, token);
    expect((await key.get('/api/application/servers')).status).toBe(200);
    expectError(
      await key.post('/api/application/servers', {}),
      403,
      'AccessDeniedHttpException',
      UNAUTHORIZED,
    );
    expectError(await key.get('/api/application/users'), 403, 'AccessDeniedHttpException', UNAUTHORIZED);
    // Nor use the admin screen's own routes.
    expectError(await key.get(URL_), 403, 'AccessDeniedHttpException', UNAUTHORIZED);
  });

  it('is listed with its rights and last use, never its secret', async () => {
    const res = await adminClient.get(URL_);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.meta.pagination).toMatchObject({ total: 1, count: 1, current_page: 1, total_pages: 1 });
    const [entry] = res.body.data;
    expect(entry.object).toBe('api_key');
    expect(entry.attributes.identifier).toBe(identifier);
    expect(applicationApiKeySchema.parse(entry.attributes)).toEqual(entry.attributes);
    expect(entry.attributes.permissions).toEqual({ ...NONE, servers: 1 });
    expect(entry.attributes.last_used_at).toMatch(UTC_ATOM);
    expect(res.text).not.toContain(token.slice(16));
    expect(res.text).not.toContain('secret_token');
    expect(res.text).not.toContain('token_hash');
  });

  it('stops working once deleted (204), and a second delete is 404', async () => {
    expect((await adminClient.delete(`${URL_}/${identifier}`)).status).toBe(204);
    expect((await TestClient.withKey(panel.url, token).get('/api/application/servers')).status).toBe(401);
    expect((await adminClient.get(URL_)).body.data).toEqual([]);
    expectError(
      await adminClient.delete(`${URL_}/${identifier}`),
      404,
      'NotFoundHttpException',
      'The requested resource could not be found on the server.',
    );
  });
});

describe('the keys listed and deleted', () => {
  it('are the calling admin’s application keys only (not client keys, not another admin’s)', async () => {
    const other = await panel.createUser({ admin: true });
    const otherKey = await panel.ctx.services.apiKeys.create(other, 2, { description: 'theirs' }, {});
    await clientKeyClient(panel, admin);
    const mine = await adminClient.post(URL_, { description: 'mine', permissions: {} });
    expect(mine.body.attributes.permissions).toEqual(NONE);
    const list = await adminClient.get(URL_);
    expect(
      list.body.data.map((d: { attributes: { description: string } }) => d.attributes.description),
    ).toEqual(['mine']);
    expect((await adminClient.delete(`${URL_}/${otherKey.key.identifier}`)).status).toBe(404);
    expect(await panel.ctx.repositories.apiKeys.findByIdentifier(otherKey.key.identifier)).toBeDefined();
    expect((await adminClient.delete(`${URL_}/${mine.body.attributes.identifier}`)).status).toBe(204);
  });
});

describe('refusals', () => {
  const body = { description: 'x', permissions: ALL_APPLICATION_RIGHTS };

  it('refuse a guest (401) and a non-admin session (403) on every route; nothing is created', async () => {
    const count = await keyCount();
    const guest = new TestClient(panel.url);
    expect((await guest.get(URL_)).status).toBe(401);
    expect((await guest.post(URL_, body)).status).toBe(401);
    expect((await guest.delete(`${URL_}/ptla_00000000000`)).status).toBe(401);
    expectError(await userClient.get(URL_), 403, 'AccessDeniedHttpException', NOT_ADMIN);
    expectError(await userClient.post(URL_, body), 403, 'AccessDeniedHttpException', NOT_ADMIN);
    expectError(
      await userClient.delete(`${URL_}/ptla_00000000000`),
      403,
      'AccessDeniedHttpException',
      NOT_ADMIN,
    );
    expect(await keyCount()).toBe(count);
  });

  it('refuse every API key, even a root admin’s with every right: a key cannot mint or delete keys', async () => {
    const keys = await everyKeyOf(panel, admin);
    const victim = await adminClient.post(URL_, { description: 'victim', permissions: {} });
    const count = await keyCount();
    for (const key of keys) {
      expectError(await key.get(URL_), 403, 'AccessDeniedHttpException', UNAUTHORIZED);
      expectError(await key.post(URL_, body), 403, 'AccessDeniedHttpException', UNAUTHORIZED);
      expectError(
        await key.delete(`${URL_}/${victim.body.attributes.identifier}`),
        403,
        'AccessDeniedHttpException',
        UNAUTHORIZED,
      );
    }
    expect(await keyCount()).toBe(count);
  });

  it('refuse a session without the XSRF header on POST and DELETE (419)', async () => {
    const victim = await adminClient.post(URL_, { description: 'kept', permissions: {} });
    const count = await keyCount();
    const noXsrf = await panel.signedIn(admin);
    noXsrf.sendXsrf = false;
    expectError(await noXsrf.post(URL_, body), 419, 'HttpException', 'CSRF token mismatch.');
    expectError(
      await noXsrf.delete(`${URL_}/${victim.body.attributes.identifier}`),
      419,
      'HttpException',
      'CSRF token mismatch.',
    );
    expect(await keyCount()).toBe(count);
  });

  it.each([
    ['description', { permissions: {} }],
    ['description', { description: 'x'.repeat(501), permissions: {} }],
    ['permissions', { description: 'x' }],
    ['permissions', { description: 'x', permissions: 'all' }],
    ['permissions.users', { description: 'x', permissions: { users: 2 } }],
    ['permissions.servers', { description: 'x', permissions: { servers: 'rw' } }],
    ['allowed_ips.1', { description: 'x', allowed_ips: ['10.0.0.0/8', 'not-an-ip'], permissions: {} }],
  ])('answer 422 on %s for %j and create nothing', async (field, bad) => {
    const count = await keyCount();
    expectInvalid(await adminClient.post(URL_, bad), field);
    expect(await keyCount()).toBe(count);
  });

  it('name every bad field in one answer (a form marks them all at once)', async () => {
    const count = await keyCount();
    const res = await adminClient.post(URL_, { allowed_ips: 'x', permissions: { users: 2 } });
    expect(res.status, res.text).toBe(422);
    const fields = (res.body.errors as { meta: { source_field: string } }[]).map((e) => e.meta.source_field);
    expect(fields.sort()).toEqual(['allowed_ips', 'description', 'permissions.users']);
    expect(await keyCount()).toBe(count);
  });
});
