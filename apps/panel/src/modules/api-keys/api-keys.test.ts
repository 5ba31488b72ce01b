import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { KEY_TYPE } from './api-keys.service.ts';

let panel: TestPanel;
let v6: TestPanel;

beforeAll(async () => {
  [panel, v6] = await Promise.all([startTestPanel(), startTestPanel({}, { host: '::1' })]);
});
afterAll(async () => {
  await Promise.all([panel.close(), v6.close()]);
});

async function createKey(client: TestClient, body: Record<string, unknown>) {
  return client.post('/api/client/account/api-keys', body);
}

/** A client key made through the service; returns a bearer client for `on`. */
async function keyClient(on: TestPanel, user: User, allowed_ips: string[] = []) {
  const { key, secret } = await on.ctx.services.apiKeys.create(user, KEY_TYPE.client, {
    description: 'test',
    allowed_ips,
  });
  return TestClient.withKey(on.url, key.identifier + secret);
}

describe('POST /api/client/account/api-keys', () => {
  it('creates a key whose secret is shown once and authenticates as a bearer token', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const res = await createKey(client, { description: 'My bot', allowed_ips: ['127.0.0.1'] });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('api_key');
    const { identifier, description, allowed_ips, last_used_at, created_at } = res.body.attributes;
    expect(Object.keys(res.body.attributes)).toEqual([
      'identifier',
      'description',
      'allowed_ips',
      'last_used_at',
      'created_at',
    ]);
    expect(identifier).toMatch(/^ptlc_[A-Za-z0-9]{11}$/u);
    expect(description).toBe('My bot');
    expect(allowed_ips).toEqual(['127.0.0.1']);
    expect(last_used_at).toBeNull();
    expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/u);
    const secret = res.body.meta.secret_token as string;
    expect(secret).toMatch(/^[A-Za-z0-9]{32}$/u);

    const bearer = TestClient.withKey(panel.url, identifier + secret);
    const account = await bearer.get('/api/client/account');
    expect(account.status).toBe(200);
    expect(account.body.attributes.username).toBe(user.username);
    // A bearer request needs no XSRF header.
    const made = await bearer.post('/api/client/account/api-keys', { description: 'made by a key' });
    expect(made.status).toBe(200);

    const row = await panel.ctx.repositories.apiKeys.findByIdentifier(identifier);
    expect(row!.token_hash).not.toBe(secret);
    expect(row!.token_hash).not.toContain(secret);
    expect(row!.last_used_at).not.toBeNull();
    const list = await client.get('/api/client/account/api-keys');
    const listed = list.body.data.find(
      (k: { attributes: { identifier: string } }) => k.attributes.identifier === identifier,
    );
    expect(listed.attributes.last_used_at).toMatch(/\+00:00$/u);
    // Wrong secret with a right identifier: 401.
    expect(
      (await TestClient.withKey(panel.url, identifier + 'x'.repeat(32)).get('/api/client/account')).status,
    ).toBe(401);
  });

  it('stores [] when allowed_ips is not given', async () => {
    const user = await panel.createUser();
    const res = await createKey(await panel.signedIn(user), { description: 'x' });
    expect(res.body.attributes.allowed_ips).toEqual([]);
  });

  it('reports every invalid allowed_ips entry, each with its index, and stores no key', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const res = await createKey(client, {
      description: 'x',
      allowed_ips: ['10.0.0.1', 'nope', '192.168.0.0/16', '10.0.0.0/33', '::1', '1.2.3.4.5'],
    });
    expect(res.status).toBe(422);
    const entry = (index: number, value: string) => ({
      code: 'ValidationException',
      status: '422',
      detail: `"${value}" is not a valid IP address or CIDR range.`,
      meta: { source_field: `allowed_ips.${index}`, rule: '' },
    });
    expect(res.body.errors).toEqual([entry(1, 'nope'), entry(3, '10.0.0.0/33'), entry(5, '1.2.3.4.5')]);
    expect((await client.get('/api/client/account/api-keys')).body.data).toEqual([]);
  });

  it('validates description and allowed_ips (422)', async () => {
    const client = await panel.signedIn(await panel.createUser());
    const missing = await createKey(client, { description: '  ' });
    expect(missing.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The description field is required.',
        meta: { source_field: 'description', rule: 'required' },
      },
    ]);
    const long = await createKey(client, { description: 'x'.repeat(501) });
    expect(firstError(long)).toMatchObject({
      detail: 'The description may not be greater than 500 characters.',
      meta: { source_field: 'description', rule: 'max' },
    });
    const ips = await createKey(client, { description: 'x', allowed_ips: ['10.0.0.0/8', 'not-an-ip'] });
    expect(ips.status).toBe(422);
    expect(ips.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: '"not-an-ip" is not a valid IP address or CIDR range.',
        meta: { source_field: 'allowed_ips.1', rule: '' },
      },
    ]);
    const badCidr = await createKey(client, { description: 'x', allowed_ips: ['10.0.0.0/33'] });
    expect(firstError(badCidr).meta).toEqual({ source_field: 'allowed_ips.0', rule: '' });
    const notArray = await createKey(client, { description: 'x', allowed_ips: 'nope' });
    expect(firstError(notArray)).toMatchObject({
      detail: 'The allowed ips must be an array.',
      meta: { source_field: 'allowed_ips', rule: 'array' },
    });
    expect((await client.get('/api/client/account/api-keys')).body.data).toEqual([]);
  });

  it('allows 25 keys per account (400 DisplayException after)', async () => {
    const user = await panel.createUser();
    for (let i = 0; i < 25; i++) {
      await panel.ctx.services.apiKeys.create(user, KEY_TYPE.client, { description: `k${i}` });
    }
    const res = await createKey(await panel.signedIn(user), { description: 'one too many' });
    expectError(res, 400, 'DisplayException', 'You have reached the account limit for number of API keys.');
  });

  it('refuses a session request without the XSRF header (419) and a guest (401)', async () => {
    const client = await panel.signedIn(await panel.createUser());
    client.sendXsrf = false;
    expect((await createKey(client, { description: 'x' })).status).toBe(419);
    expect((await createKey(new TestClient(panel.url), { description: 'x' })).status).toBe(401);
  });
});

describe('GET and DELETE /api/client/account/api-keys', () => {
  it('lists the caller’s client keys without secrets; deletes own keys only', async () => {
    const user = await panel.createUser({ admin: true });
    const other = await panel.createUser();
    const client = await panel.signedIn(user);
    const created = await createKey(client, { description: 'mine' });
    const secret = created.body.meta.secret_token as string;
    const identifier = created.body.attributes.identifier as string;
    const app = await panel.ctx.services.apiKeys.create(user, KEY_TYPE.application, {
      description: 'app key',
    });
    const theirs = await panel.ctx.services.apiKeys.create(other, KEY_TYPE.client, { description: 'theirs' });

    const list = await client.get('/api/client/account/api-keys');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    expect(list.body).not.toHaveProperty('meta');
    expect(
      list.body.data.map((k: { attributes: { identifier: string } }) => k.attributes.identifier),
    ).toEqual([identifier]);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain('token');

    for (const id of [theirs.key.identifier, app.key.identifier, 'ptlc_doesnotexst']) {
      const res = await client.delete(`/api/client/account/api-keys/${id}`);
      expect(res.status, id).toBe(404);
      expect(firstError(res)).toEqual({
        code: 'NotFoundHttpException',
        status: '404',
        detail: 'The requested resource could not be found on the server.',
      });
    }
    const del = await client.delete(`/api/client/account/api-keys/${identifier}`);
    expect(del.status).toBe(204);
    expect((await TestClient.withKey(panel.url, identifier + secret).get('/api/client/account')).status).toBe(
      401,
    );
    expect(await panel.ctx.repositories.apiKeys.findByIdentifier(theirs.key.identifier)).toBeDefined();
    const events = (await client.get('/api/client/account/activity')).body.data.map(
      (e: { attributes: { event: string } }) => e.attributes.event,
    );
    expect(events).toEqual(expect.arrayContaining(['user:api-key.create', 'user:api-key.delete']));
  });
});

describe('IP allow-lists', () => {
  const blocked = (ip: string) => ({
    code: 'AccessDeniedHttpException',
    status: '403',
    detail: `This IP address (${ip}) does not have permission to access the API using these credentials.`,
  });

  it('IPv4: exact address, CIDR, mask, wildcard and range', async () => {
    const user = await panel.createUser();
    for (const entry of [
      '127.0.0.1',
      '127.0.0.0/8',
      '127.0.0.0/255.0.0.0',
      '127.0.0.*',
      '127.0.0.1-127.0.0.9',
    ]) {
      expect((await (await keyClient(panel, user, [entry])).get('/api/client/account')).status, entry).toBe(
        200,
      );
    }
    for (const entry of ['10.0.0.1', '10.0.0.0/8', '127.0.1.*', '127.0.0.2-127.0.0.9', '::1']) {
      const res = await (await keyClient(panel, user, [entry])).get('/api/client/account');
      expect(res.status, entry).toBe(403);
      expect(firstError(res)).toEqual(blocked('127.0.0.1'));
    }
    // Any entry matching is enough.
    expect(
      (await (await keyClient(panel, user, ['10.0.0.1', '127.0.0.1'])).get('/api/client/account')).status,
    ).toBe(200);
    const logged = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', '=', 'auth:ip-blocked')
      .execute();
    expect(logged.length).toBeGreaterThanOrEqual(5);
  });

  it('IPv6: a panel on ::1 checks addresses and CIDR ranges of IPv6', async () => {
    const user = await v6.createUser();
    for (const entry of ['::1', '::/120', '0:0:0:0:0:0:0:1']) {
      expect((await (await keyClient(v6, user, [entry])).get('/api/client/account')).status, entry).toBe(200);
    }
    for (const entry of ['2001:db8::/32', '::2', '127.0.0.1', '127.0.0.0/8']) {
      const res = await (await keyClient(v6, user, [entry])).get('/api/client/account');
      expect(res.status, entry).toBe(403);
      expect(firstError(res)).toEqual(blocked('::1'));
    }
  });

  it('does not apply to session requests', async () => {
    const user = await panel.createUser();
    await panel.ctx.services.apiKeys.create(user, KEY_TYPE.client, {
      description: 'x',
      allowed_ips: ['10.0.0.1'],
    });
    expect((await (await panel.signedIn(user)).get('/api/client/account')).status).toBe(200);
  });
});

describe('application keys', () => {
  it('are refused on the client API and accepted on the application API for root admins', async () => {
    const admin = await panel.createUser({ admin: true });
    const user = await panel.createUser();
    const adminKey = await panel.ctx.services.apiKeys.create(admin, KEY_TYPE.application, {
      description: 'app',
    });
    expect(adminKey.key.identifier).toMatch(/^ptla_[A-Za-z0-9]{11}$/u);
    const client = TestClient.withKey(panel.url, adminKey.key.identifier + adminKey.secret);
    const refused = await client.get('/api/client/account');
    expectError(
      refused,
      403,
      'AccessDeniedHttpException',
      'You are attempting to use an application API key on an endpoint that requires a client API key.',
    );
    const app = await client.get('/api/application/not-a-route');
    expectError(
      app,
      404,
      'NotFoundHttpException',
      'The route api/application/not-a-route could not be found.',
    );

    const userKey = await panel.ctx.services.apiKeys.create(user, KEY_TYPE.application, {
      description: 'app',
    });
    const denied = await TestClient.withKey(panel.url, userKey.key.identifier + userKey.secret).get(
      '/api/application/not-a-route',
    );
    expectError(
      denied,
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const userClientKey = await keyClient(panel, user);
    expect((await userClientKey.get('/api/application/not-a-route')).status).toBe(403);
    expect((await new TestClient(panel.url).get('/api/application/not-a-route')).status).toBe(401);
    // A root admin's client key reaches the application API too (reference §2.6).
    expect((await (await keyClient(panel, admin)).get('/api/application/not-a-route')).status).toBe(404);
  });
});
