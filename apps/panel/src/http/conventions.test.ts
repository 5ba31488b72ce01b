import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../db/types.ts';
import { KEY_TYPE } from '../modules/api-keys/api-keys.service.ts';
import { expectError, firstError, TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

let panel: TestPanel;
let limited: TestPanel;
let user: User;

async function bearer(on: TestPanel, owner: User): Promise<TestClient> {
  const { key, secret } = await on.ctx.services.apiKeys.create(owner, KEY_TYPE.client, { description: 'x' });
  return TestClient.withKey(on.url, key.identifier + secret);
}

beforeAll(async () => {
  [panel, limited] = await Promise.all([startTestPanel(), startTestPanel({ APP_API_CLIENT_RATELIMIT: '3' })]);
  user = await panel.createUser();
});
afterAll(async () => {
  await Promise.all([panel.close(), limited.close()]);
});

describe('errors', () => {
  it('answers malformed JSON with 400 and the parser message', async () => {
    const client = await bearer(panel, user);
    const res = await client.request(
      'POST',
      '/api/client/account/api-keys',
      undefined,
      '{"description": "x",',
    );
    expect(res.status).toBe(400);
    const err = firstError(res);
    expect(err.code).toBe('BadRequestHttpException');
    expect(err.status).toBe('400');
    expect(err.detail.startsWith('The JSON data passed in the request appears to be malformed: ')).toBe(true);
    expect(err.detail.length).toBeGreaterThan(
      'The JSON data passed in the request appears to be malformed: '.length,
    );
  });

  it('answers an unknown route with 404 in the error format, a wrong verb with 405', async () => {
    const client = await bearer(panel, user);
    for (const method of ['GET', 'POST']) {
      const res = await client.request(
        method,
        '/api/client/nothing-here?x=1',
        method === 'GET' ? undefined : {},
      );
      expect(res.status, method).toBe(404);
      expect(firstError(res)).toEqual({
        code: 'NotFoundHttpException',
        status: '404',
        detail: 'The route api/client/nothing-here could not be found.',
      });
    }
    const res = await client.delete('/api/client/account');
    expect(res.status).toBe(405);
    expect(firstError(res).code).toBe('MethodNotAllowedHttpException');
    expect(firstError(res).status).toBe('405');
    expect(res.headers.get('allow')).toMatch(/GET/u);
    const put = await client.put('/api/client/account/api-keys');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toMatch(/GET/u);
    expect(put.headers.get('allow')).toMatch(/POST/u);
    // GET as well, although GET requests elsewhere fall through to the web app's pages.
    const get = await client.get('/api/client/account/ssh-keys/remove');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(firstError(get).detail).toBe(
      'The GET method is not supported for route api/client/account/ssh-keys/remove. Supported methods: POST.',
    );
  });

  it('sends 204 answers without a body or a content type', async () => {
    const client = await bearer(panel, user);
    const res = await client.post('/api/client/account/ssh-keys/remove', { fingerprint: 'none' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
  });
});

describe('input normalisation', () => {
  it('trims strings and turns empty strings into null; passwords are not trimmed', async () => {
    const client = await bearer(panel, user);
    const made = await client.post('/api/client/account/api-keys', {
      description: '  spaced out  ',
      allowed_ips: [' 10.0.0.1 '],
    });
    expect(made.status).toBe(200);
    expect(made.body.attributes.description).toBe('spaced out');
    expect(made.body.attributes.allowed_ips).toEqual(['10.0.0.1']);
    const blank = await client.post('/api/client/account/api-keys', { description: '' });
    expect(firstError(blank)).toMatchObject({
      detail: 'The description field is required.',
      meta: { rule: 'required' },
    });
    const pw = await client.put('/api/client/account/password', {
      current_password: ' correct horse battery ',
      password: 'x',
      password_confirmation: 'x',
    });
    expect(firstError(pw).code).toBe('InvalidPasswordProvidedException');
    // Unknown fields are ignored.
    const extra = await client.post('/api/client/account/api-keys', { description: 'extra', nest: 5 });
    expect(extra.status).toBe(200);
  });
});

describe('rate limits', () => {
  it('sends X-RateLimit headers on the client API', async () => {
    const client = await bearer(panel, await panel.createUser());
    const first = await client.get('/api/client/account');
    expect(first.headers.get('x-ratelimit-limit')).toBe('720');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('719');
    const second = await client.get('/api/client/account');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('718');
  });

  it('answers 429 after the per-user limit, with Retry-After; other users are not affected', async () => {
    const owner = await limited.createUser();
    const key = await bearer(limited, owner);
    const session = await limited.signedIn(owner);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await (i === 1 ? session : key).get('/api/client/account');
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const res = await key.get('/api/client/account');
    expectError(res, 429, 'ThrottleRequestsException', 'Too Many Attempts.');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await session.get('/api/client/account')).status).toBe(429);
    expect(
      (await (await limited.signedIn(await limited.createUser())).get('/api/client/account')).status,
    ).toBe(200);
  });
});

describe('root endpoints', () => {
  it('GET /api/client/permissions returns the catalogue groups and keys of the reference', async () => {
    const res = await (await bearer(panel, user)).get('/api/client/permissions');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('system_permissions');
    const perms = res.body.attributes.permissions as Record<
      string,
      { description: string; keys: Record<string, string> }
    >;
    expect(Object.keys(perms)).toEqual([
      'websocket',
      'control',
      'user',
      'file',
      'backup',
      'allocation',
      'startup',
      'database',
      'schedule',
      'settings',
      'activity',
    ]);
    expect(Object.keys(perms.file!.keys)).toEqual([
      'create',
      'read',
      'read-content',
      'update',
      'delete',
      'archive',
      'sftp',
    ]);
    expect(Object.keys(perms.database!.keys)).toEqual([
      'create',
      'read',
      'update',
      'delete',
      'view_password',
    ]);
    expect(Object.keys(perms.startup!.keys)).toEqual(['read', 'update', 'docker-image']);
    for (const group of Object.values(perms)) {
      expect(typeof group.description).toBe('string');
      for (const text of Object.values(group.keys)) expect(text.length).toBeGreaterThan(0);
    }
    expect((await new TestClient(panel.url).get('/api/client/permissions')).status).toBe(401);
  });

  it('GET /api/client lists no servers, paginated', async () => {
    const client = await bearer(panel, user);
    const res = await client.get('/api/client');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'list',
      data: [],
      meta: { pagination: { total: 0, count: 0, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
    });
    const capped = await client.get('/api/client?per_page=1000&filter[name]=x&type=admin-all');
    expect(capped.body.meta.pagination.per_page).toBe(100);
    const bad = await client.get('/api/client?filter[node]=x');
    expect(bad.status).toBe(400);
    expect(firstError(bad).code).toBe('InvalidFilterQuery');
    expect((await new TestClient(panel.url).get('/api/client')).status).toBe(401);
  });
});
