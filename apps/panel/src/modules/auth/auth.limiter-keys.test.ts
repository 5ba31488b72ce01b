import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor, totpCode } from '../../test-support/totp.ts';

// CVE-2026-61609: a sign-in limiter with one bucket for everyone (or one per account) lets anyone
// lock others out. Failures are counted per account and per source together: an attacker hammering
// account X from address A locks out neither account Y nor account X signing in from address B.
let panel: TestPanel;
const PASSWORD = 'hunter2hunter2';
const LOCKED = /^Too many login attempts\. Please try again in \d+ seconds\.$/u;

function from(address: string): TestClient {
  const client = new TestClient(panel.url);
  client.extraHeaders['x-forwarded-for'] = address;
  return client;
}

async function hammer(client: TestClient, login: string, times = 6) {
  await client.get('/sanctum/csrf-cookie');
  const statuses = [];
  for (let i = 0; i < times; i++)
    statuses.push((await client.post('/auth/login', { user: login, password: 'wrong-wrong' })).status);
  return statuses;
}

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await panel?.close();
});

describe('sign-in limiter keys (CVE-2026-61609)', () => {
  it('hammering account X from A locks X out at A only: X from B and Y from A still sign in', async () => {
    const x = await panel.createUser({ password: PASSWORD });
    const y = await panel.createUser({ password: PASSWORD });
    expect(await hammer(from('192.0.2.10'), x.username)).toEqual([400, 400, 400, 400, 400, 429]);
    const locked = await from('192.0.2.10').login(x.email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(firstError(locked).detail).toMatch(LOCKED);
    expect((await from('192.0.2.11').login(x.username, PASSWORD)).status).toBe(200);
    expect((await from('192.0.2.10').login(y.username, PASSWORD)).status).toBe(200);
  });

  it('hammering the checkpoint of X from A leaves X signing in with its second factor from B', async () => {
    const x = await panel.createUser({ password: PASSWORD });
    const { secret } = await enableTwoFactor(panel, x);
    const attacker = from('192.0.2.20');
    const token = (await attacker.login(x.username, PASSWORD)).body.data.confirmation_token as string;
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await attacker.post('/auth/login/checkpoint', {
            confirmation_token: token,
            authentication_code: '000000',
          })
        ).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const owner = from('192.0.2.21');
    const pending = await owner.login(x.username, PASSWORD);
    expect(pending.status).toBe(200);
    const res = await owner.post('/auth/login/checkpoint', {
      confirmation_token: pending.body.data.confirmation_token,
      authentication_code: await totpCode(secret, 30),
    });
    expect(res.status, res.text).toBe(200);
  });

  it('a very long unknown login from a long IPv6 source is counted too (400, then 429; never a 500)', async () => {
    const login = `${'x'.repeat(250)}@example.com`;
    const statuses = await hammer(from('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'), login);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('an IPv6 source is its /64: other addresses of the same /64 are locked with it, another /64 is not', async () => {
    const x = await panel.createUser({ password: PASSWORD });
    for (let i = 1; i <= 5; i++)
      expect(await hammer(from(`2001:db8:0:1::${i}`), x.username, 1)).toEqual([400]);
    expect((await from('2001:db8:0:1::ffff').login(x.username, PASSWORD)).status).toBe(429);
    expect((await from('2001:db8:0:2::1').login(x.username, PASSWORD)).status).toBe(200);
  });
});
