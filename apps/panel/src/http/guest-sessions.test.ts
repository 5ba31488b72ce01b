import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { SESSION_COOKIE, XSRF_COOKIE } from './session.ts';

let panel: TestPanel;

beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
});

async function sessionRows(): Promise<number> {
  const row = await panel.ctx.db.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('guest sessions', () => {
  it('writes no session row for anonymous page views and csrf-cookie calls (a crawler cannot fill the table)', async () => {
    const before = await sessionRows();
    const paths = ['/', '/sanctum/csrf-cookie', '/auth/login'];
    for (let i = 0; i < 100; i++) {
      const res = await new TestClient(panel.url).get(paths[i % paths.length]!);
      expect(res.status).toBeLessThan(300);
    }
    // A crawler that keeps its cookies: no row either.
    const keeper = new TestClient(panel.url);
    for (let i = 0; i < 10; i++) await keeper.get(paths[i % paths.length]!);
    expect(await sessionRows()).toBe(before);
  });

  it('still hands out working XSRF cookies: the guest signs in with them, and the sign-in rotates', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const client = new TestClient(panel.url);
    const page = await client.get('/auth/login');
    const guestToken = client.cookies.get(SESSION_COOKIE)!;
    expect(guestToken).toMatch(/^[A-Za-z0-9]{40}$/u);
    // The page's meta tag and the cookie carry the same token.
    expect(page.text).toContain(`content="${client.cookies.get(XSRF_COOKIE)}"`);
    await client.get('/sanctum/csrf-cookie');
    expect(client.cookies.get(SESSION_COOKIE)).toBe(guestToken);
    const before = await sessionRows();
    expect(
      (await client.post('/auth/login', { user: user.username, password: 'hunter2hunter2' })).status,
    ).toBe(200);
    expect(await sessionRows()).toBe(before + 1);
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(guestToken);
    expect((await client.get('/api/client/account')).body.attributes.username).toBe(user.username);
  });

  it('refuses a guest POST whose XSRF header does not belong to its cookie', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const victim = new TestClient(panel.url);
    await victim.get('/sanctum/csrf-cookie');
    const attacker = new TestClient(panel.url);
    await attacker.get('/sanctum/csrf-cookie');
    // The victim's session cookie with the attacker's own XSRF token.
    victim.cookies.set(XSRF_COOKIE, attacker.cookies.get(XSRF_COOKIE)!);
    const res = await victim.post('/auth/login', { user: user.username, password: 'hunter2hunter2' });
    expect(res.status).toBe(419);
    victim.sendXsrf = false;
    expect(
      (await victim.post('/auth/login', { user: user.username, password: 'hunter2hunter2' })).status,
    ).toBe(419);
  });

  it('signing out leaves a guest without a row', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const before = await sessionRows();
    expect((await client.post('/auth/logout')).status).toBe(204);
    expect(await sessionRows()).toBe(before - 1);
    expect((await client.get('/api/client/account')).status).toBe(401);
  });
});
