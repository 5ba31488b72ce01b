import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor } from '../../test-support/totp.ts';

let panel: TestPanel;

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await panel.close();
});

describe('sign-in lockout under concurrent guessing', () => {
  it('lets at most 5 of 10 parallel wrong passwords for one account from one source be checked; the rest are locked out', async () => {
    const victim = await panel.createUser({ password: 'hunter2hunter2' });
    // 10: the sign-in routes' request limit per source; the lockout counts per account and source.
    const clients = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const c = new TestClient(panel.url);
        c.extraHeaders['x-forwarded-for'] = '192.0.2.1';
        await c.get('/sanctum/csrf-cookie');
        return c;
      }),
    );
    const answers = await Promise.all(
      clients.map((c, i) => c.post('/auth/login', { user: victim.username, password: `guess-${i}` })),
    );
    const checked = answers.filter((r) => r.status === 400);
    const locked = answers.filter((r) => r.status === 429);
    expect(checked.length + locked.length).toBe(10);
    expect(checked.length).toBeLessThanOrEqual(5);
    for (const r of checked) {
      expect(firstError(r).detail).toBe('No account matching those credentials could be found.');
    }
    for (const r of locked) expect(firstError(r).detail).toMatch(/^Too many login attempts\./u);
    // The right password is locked out too now from that source (a new session, same address)…
    const late = new TestClient(panel.url);
    late.extraHeaders['x-forwarded-for'] = '192.0.2.1';
    expect((await late.login(victim.username, 'hunter2hunter2')).status).toBe(429);
    // …but not from another source (CVE-2026-61609).
    const owner = new TestClient(panel.url);
    owner.extraHeaders['x-forwarded-for'] = '192.0.2.200';
    expect((await owner.login(victim.username, 'hunter2hunter2')).status).toBe(200);
  });

  it('lets at most 5 of 50 parallel wrong second-factor codes for one pending sign-in be checked', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    await enableTwoFactor(panel, user);
    const client = new TestClient(panel.url);
    client.extraHeaders['x-forwarded-for'] = '192.0.2.201';
    const pending = await client.login(user.username, 'hunter2hunter2');
    const token = pending.body.data.confirmation_token as string;
    // The same session from 50 addresses (the per-address request limit would stop one address).
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const c = new TestClient(panel.url);
        for (const [k, v] of client.cookies) c.cookies.set(k, v);
        c.extraHeaders['x-forwarded-for'] = `198.18.0.${i + 1}`;
        return c.post('/auth/login/checkpoint', {
          confirmation_token: token,
          // Seven digits: never the right code.
          authentication_code: String(1000000 + i),
        });
      }),
    );
    const checked = answers.filter((r) => r.status === 400);
    expect(checked.length + answers.filter((r) => r.status === 429).length).toBe(50);
    expect(checked.length).toBeLessThanOrEqual(5);
  });
});
