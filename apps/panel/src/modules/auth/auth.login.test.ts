import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

let panel: TestPanel;

beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
});

describe('POST /auth/login', () => {
  it('signs in by username or email, rotating the session and returning the user', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    for (const login of [user.username, user.email.toUpperCase()]) {
      const client = new TestClient(panel.url);
      await client.get('/sanctum/csrf-cookie');
      const before = client.cookies.get('talon_session');
      const res = await client.post('/auth/login', { user: login, password: 'hunter2hunter2' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ complete: true, intended: '/' });
      expect(res.body.data.user).toMatchObject({ uuid: user.uuid, username: user.username, root_admin: false });
      expect(res.body.data.user).not.toHaveProperty('password');
      expect(client.cookies.get('talon_session')).not.toBe(before);
      expect((await client.get('/api/client/account')).body.attributes.username).toBe(user.username);
    }
  });

  it('sets HttpOnly, SameSite=Lax session cookies and a readable XSRF cookie', async () => {
    const client = new TestClient(panel.url);
    const res = await client.get('/sanctum/csrf-cookie');
    expect(res.status).toBe(204);
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('talon_session='))!;
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!;
    expect(session).toMatch(/HttpOnly/iu);
    expect(session).toMatch(/SameSite=Lax/iu);
    expect(xsrf).not.toMatch(/HttpOnly/iu);
  });

  it('refuses a wrong password and an unknown user with the same answer', async () => {
    const user = await panel.createUser();
    const client = new TestClient(panel.url);
    await client.get('/sanctum/csrf-cookie');
    for (const body of [
      { user: user.username, password: 'wrong password' },
      { user: 'nobody-here', password: 'whatever1' },
    ]) {
      const res = await client.post('/auth/login', body);
      expect(res.status).toBe(400);
      expect(firstError(res)).toEqual({
        code: 'DisplayException',
        status: '400',
        detail: 'No account matching those credentials could be found.',
      });
    }
    expect((await client.get('/api/client/account')).status).toBe(401);
  });

  it('refuses a sign-in without the XSRF header (419) and changes nothing', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const client = new TestClient(panel.url);
    await client.get('/sanctum/csrf-cookie');
    client.sendXsrf = false;
    const res = await client.post('/auth/login', { user: user.username, password: 'hunter2hunter2' });
    expect(res.status).toBe(419);
    expect(firstError(res)).toEqual({ code: 'HttpException', status: '419', detail: 'CSRF token mismatch.' });
    client.sendXsrf = true;
    expect((await client.get('/api/client/account')).status).toBe(401);
  });
});
