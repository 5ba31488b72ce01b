import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/crypto.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

let panel: TestPanel;
let ipSeq = 0;

/** A client whose requests come from an address of their own. */
const fromNewIp = (): TestClient => TestClient.fromNewIp(panel.url);

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await panel.close();
});

describe('POST /auth/login', () => {
  it('signs in by username or email, rotating the session and returning the user', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    for (const login of [user.username, user.email.toUpperCase()]) {
      const client = fromNewIp();
      await client.get('/sanctum/csrf-cookie');
      const before = client.cookies.get('talon_session')!;
      const res = await client.post('/auth/login', { user: login, password: 'hunter2hunter2' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ complete: true, intended: '/' });
      expect(res.body.data.user).toMatchObject({
        uuid: user.uuid,
        username: user.username,
        root_admin: false,
      });
      expect(res.body.data.user).not.toHaveProperty('password');
      expect(res.body.data.user).not.toHaveProperty('id');
      expect(client.cookies.get('talon_session')).not.toBe(before);
      expect((await client.get('/api/client/account')).body.attributes.username).toBe(user.username);
      // The pre-login session id is dead: replaying it is a guest again.
      const replay = new TestClient(panel.url);
      replay.cookies.set('talon_session', before);
      expect((await replay.get('/api/client/account')).status).toBe(401);
    }
  });

  it('sets HttpOnly, SameSite=Lax session cookies and a readable XSRF cookie', async () => {
    const client = fromNewIp();
    const res = await client.get('/sanctum/csrf-cookie');
    expect(res.status).toBe(204);
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('talon_session='))!;
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!;
    expect(session).toMatch(/HttpOnly/iu);
    expect(session).toMatch(/SameSite=Lax/iu);
    expect(session).toMatch(/Path=\//u);
    expect(xsrf).not.toMatch(/HttpOnly/iu);
  });

  it('keeps only a hash of the session cookie in the database', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const client = fromNewIp();
    expect((await client.login(user.username, 'hunter2hunter2')).status).toBe(200);
    const token = client.cookies.get('talon_session')!;
    const rows = await panel.ctx.db.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => r.id)).toEqual([sha256Hex(token)]);
    expect(rows.map((r) => r.id)).not.toContain(token);
  });

  it('refuses a wrong password and an unknown user with the same answer', async () => {
    const user = await panel.createUser();
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    for (const body of [
      { user: user.username, password: 'wrong password' },
      { user: 'nobody-here', password: 'whatever1' },
      {},
    ]) {
      const res = await client.post('/auth/login', body);
      expectError(res, 400, 'DisplayException', 'No account matching those credentials could be found.');
    }
    expect((await client.get('/api/client/account')).status).toBe(401);
    const fails = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', '=', 'auth:fail')
      .execute();
    expect(fails.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a sign-in without the XSRF header (419) and changes nothing', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    client.sendXsrf = false;
    const res = await client.post('/auth/login', { user: user.username, password: 'hunter2hunter2' });
    expectError(res, 419, 'HttpException', 'CSRF token mismatch.');
    client.sendXsrf = true;
    client.extraHeaders['x-xsrf-token'] = 'not-the-token';
    const wrong = new TestClient(panel.url);
    wrong.cookies.set('talon_session', client.cookies.get('talon_session')!);
    wrong.extraHeaders = { 'x-xsrf-token': 'not-the-token', 'x-forwarded-for': '198.51.100.250' };
    expect(
      (await wrong.post('/auth/login', { user: user.username, password: 'hunter2hunter2' })).status,
    ).toBe(419);
    // No session at all: refused too.
    const bare = fromNewIp();
    expect((await bare.post('/auth/login', { user: user.username, password: 'hunter2hunter2' })).status).toBe(
      419,
    );
    expect((await client.get('/api/client/account')).status).toBe(401);
  });

  it('locks an account out at one address after 5 failures, by username or email: 429, validation-shaped body, Retry-After', async () => {
    const victim = await panel.createUser({ password: 'hunter2hunter2' });
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    for (let i = 0; i < 5; i++) {
      const login = i % 2 === 0 ? victim.username : victim.email;
      const res = await client.post('/auth/login', { user: login, password: 'nope-nope' });
      expect(res.status).toBe(400);
    }
    const locked = await client.post('/auth/login', { user: victim.username, password: 'hunter2hunter2' });
    expect(locked.status).toBe(429);
    expect(locked.body.errors).toHaveLength(1);
    const err = firstError(locked);
    expect(err).toMatchObject({
      code: 'ValidationException',
      status: '422',
      meta: { source_field: 'email', rule: '' },
    });
    expect(err.detail).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/u);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(
      (await client.post('/auth/login', { user: victim.email, password: 'hunter2hunter2' })).status,
    ).toBe(429);
    // Another address signs in to the same account; another account signs in from that address.
    expect((await fromNewIp().login(victim.username, 'hunter2hunter2')).status).toBe(200);
    const other = await panel.createUser({ password: 'hunter2hunter2' });
    expect(
      (await client.post('/auth/login', { user: other.username, password: 'hunter2hunter2' })).status,
    ).toBe(200);
  });

  it('counts an unknown login per name and address: 5 failures lock that name there only', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/auth/login', { user: 'nobody-here', password: 'nope-nope' })).status).toBe(
        400,
      );
    }
    expect((await client.post('/auth/login', { user: 'NOBODY-here', password: 'nope-nope' })).status).toBe(
      429,
    );
    expect((await fromNewIp().login('nobody-here', 'nope-nope')).status).toBe(400);
  });

  it('allows 10 sign-in requests per minute per address, then answers 429 Too Many Attempts', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    ipSeq += 1;
    const ip = `203.0.113.${ipSeq}`;
    const fresh = () => {
      const c = new TestClient(panel.url);
      c.extraHeaders['x-forwarded-for'] = ip;
      return c;
    };
    for (let i = 0; i < 10; i++)
      expect((await fresh().login(user.username, 'hunter2hunter2')).status).toBe(200);
    const res = await fresh().login(user.username, 'hunter2hunter2');
    expectError(res, 429, 'ThrottleRequestsException', 'Too Many Attempts.');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const checkpoint = fresh();
    await checkpoint.get('/sanctum/csrf-cookie');
    expect((await checkpoint.post('/auth/login/checkpoint', {})).status).toBe(429);
    // The bucket is per address (not one bucket for the whole panel).
    expect((await fromNewIp().login(user.username, 'hunter2hunter2')).status).toBe(200);
  });

  it('stores argon2id hashes; a bcrypt $2y$ hash verifies and is re-hashed to argon2id', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    expect(user.password).toMatch(/^\$argon2id\$/u);
    const legacy = bcrypt.hashSync('imported-pass', 10).replace(/^\$2[ab]\$/u, '$2y$');
    await panel.ctx.repositories.users.update(user.id, { password: legacy });
    expect((await fromNewIp().login(user.username, 'wrong-pass')).status).toBe(400);
    expect((await panel.ctx.repositories.users.findById(user.id))!.password).toBe(legacy);
    expect((await fromNewIp().login(user.username, 'imported-pass')).status).toBe(200);
    const stored = (await panel.ctx.repositories.users.findById(user.id))!.password;
    expect(stored).toMatch(/^\$argon2id\$/u);
    expect((await fromNewIp().login(user.username, 'imported-pass')).status).toBe(200);
  });

  it('redirects a signed-in caller away from the guest routes', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    client.extraHeaders['x-forwarded-for'] = '192.0.2.77';
    for (const path of ['/auth/login', '/auth/login/checkpoint', '/auth/password', '/auth/password/reset']) {
      const res = await client.post(path, {});
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
    }
  });
});

describe('POST /auth/logout', () => {
  it('answers 401 to a guest', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const res = await client.post('/auth/logout');
    expectError(res, 401, 'AuthenticationException', 'Unauthenticated.');
  });

  it('needs the XSRF header, then ends the session for good', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const token = client.cookies.get('talon_session')!;
    client.sendXsrf = false;
    expect((await client.post('/auth/logout')).status).toBe(419);
    expect((await client.get('/api/client/account')).status).toBe(200);
    client.sendXsrf = true;
    const res = await client.post('/auth/logout');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(client.cookies.get('talon_session')).not.toBe(token);
    expect((await client.get('/api/client/account')).status).toBe(401);
    const replay = new TestClient(panel.url);
    replay.cookies.set('talon_session', token);
    expect((await replay.get('/api/client/account')).status).toBe(401);
  });
});
