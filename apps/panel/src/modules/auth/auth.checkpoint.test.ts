import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/crypto.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor, totpCode } from '../../test-support/totp.ts';

let panel: TestPanel;
const PASSWORD = 'hunter2hunter2';
const INVALID = 'The two-factor authentication token was invalid.';

/** A client whose requests come from an address of their own. */
const fromNewIp = (): TestClient => TestClient.fromNewIp(panel.url);

/** A user with two-factor on, and a client that has passed the password step. */
async function pendingLogin() {
  const user = await panel.createUser({ password: PASSWORD });
  const { secret, tokens } = await enableTwoFactor(panel, user);
  const client = fromNewIp();
  const res = await client.login(user.username, PASSWORD);
  expect(res.status).toBe(200);
  return { user, secret, tokens, client, token: res.body.data.confirmation_token as string };
}

beforeAll(async () => {
  panel = await startTestPanel({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await panel.close();
});

describe('POST /auth/login/checkpoint', () => {
  it('asks for the second factor, then signs in with a TOTP code; the same code is refused a second time', async () => {
    const { user, secret, client, token } = await pendingLogin();
    expect(token).toMatch(/^[A-Za-z0-9]{64}$/u);
    expect((await client.get('/api/client/account')).status).toBe(401);
    const code = await totpCode(secret, 30);
    const before = client.cookies.get('talon_session');
    const res = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: code,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      complete: true,
      intended: '/',
      user: { uuid: user.uuid, use_totp: true },
    });
    expect(client.cookies.get('talon_session')).not.toBe(before);
    expect((await client.get('/api/client/account')).body.attributes.username).toBe(user.username);

    // Replay: a new sign-in with the very same code (still inside its window) is refused.
    const again = fromNewIp();
    const second = await again.login(user.username, PASSWORD);
    const replay = await again.post('/auth/login/checkpoint', {
      confirmation_token: second.body.data.confirmation_token,
      authentication_code: code,
    });
    expectError(replay, 400, 'DisplayException', INVALID);
    expect((await again.get('/api/client/account')).status).toBe(401);
    const events = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('actor_id', '=', user.id)
      .execute();
    expect(events.map((e) => e.event)).toContain('auth:checkpoint');
  });

  it('refuses a wrong code and a wrong confirmation token', async () => {
    const { secret, client, token } = await pendingLogin();
    const code = await totpCode(secret, 30);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const bad = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: wrongCode,
    });
    expect(bad.status).toBe(400);
    expect(firstError(bad).detail).toBe(INVALID);
    const badToken = await client.post('/auth/login/checkpoint', {
      confirmation_token: 'x'.repeat(64),
      authentication_code: code,
    });
    expectError(badToken, 400, 'DisplayException', INVALID);
    expect((await client.get('/api/client/account')).status).toBe(401);
    // The right pair still works afterwards.
    const ok = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: code,
    });
    expect(ok.status).toBe(200);
  });

  it('answers "expired" without a pending sign-in and after 5 minutes', async () => {
    const expired = 'The authentication token provided has expired, please refresh the page and try again.';
    const guest = fromNewIp();
    await guest.get('/sanctum/csrf-cookie');
    const none = await guest.post('/auth/login/checkpoint', {
      confirmation_token: 'abc',
      authentication_code: '123456',
    });
    expectError(none, 400, 'DisplayException', expired);

    const { secret, client, token } = await pendingLogin();
    const id = sha256Hex(client.cookies.get('talon_session')!);
    const row = await panel.ctx.db.db
      .selectFrom('sessions')
      .select('data')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const data = JSON.parse(row.data) as { pendingLogin: { expiresAt: number } };
    data.pendingLogin.expiresAt = Date.now() - 1000;
    await panel.ctx.db.db
      .updateTable('sessions')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', id)
      .execute();
    const res = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: await totpCode(secret, 30),
    });
    expect(res.status).toBe(400);
    expect(firstError(res).detail).toBe(expired);
  });

  it('validates its input (422 per field)', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const res = await client.post('/auth/login/checkpoint', {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The confirmation token field is required.',
        meta: { source_field: 'confirmation_token', rule: 'required' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The authentication code field is required when recovery token is not present.',
        meta: { source_field: 'authentication_code', rule: 'required_without' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The recovery token field is required when authentication code is not present.',
        meta: { source_field: 'recovery_token', rule: 'required_without' },
      },
    ]);
    const nonNumeric = await client.post('/auth/login/checkpoint', {
      confirmation_token: 'a',
      authentication_code: 'abc',
    });
    expect(nonNumeric.status).toBe(422);
    expect(firstError(nonNumeric)).toMatchObject({
      detail: 'The authentication code must be a number.',
      meta: { source_field: 'authentication_code', rule: 'numeric' },
    });
  });

  it('signs in with a recovery token exactly once', async () => {
    const { user, tokens, client, token } = await pendingLogin();
    expect(tokens).toHaveLength(10);
    const recovery = tokens[3]!;
    const res = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      recovery_token: recovery,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.complete).toBe(true);
    expect(await panel.ctx.repositories.recoveryTokens.forUser(user.id)).toHaveLength(9);

    const again = fromNewIp();
    const second = await again.login(user.username, PASSWORD);
    const reuse = await again.post('/auth/login/checkpoint', {
      confirmation_token: second.body.data.confirmation_token,
      recovery_token: recovery,
    });
    expectError(reuse, 400, 'DisplayException', 'The recovery token provided is not valid.');
    const other = await again.post('/auth/login/checkpoint', {
      confirmation_token: second.body.data.confirmation_token,
      recovery_token: tokens[4],
    });
    expect(other.status).toBe(200);
  });

  it('counts failed codes towards the lockout (429 after 5)', async () => {
    const { secret, client, token } = await pendingLogin();
    for (let i = 0; i < 5; i++) {
      const res = await client.post('/auth/login/checkpoint', {
        confirmation_token: token,
        authentication_code: '000001',
      });
      expect(res.status).toBe(400);
    }
    const locked = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: await totpCode(secret, 30),
    });
    expect(locked.status).toBe(429);
    expect(firstError(locked)).toMatchObject({ code: 'ValidationException', status: '422' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('needs the XSRF header (419)', async () => {
    const { secret, client, token } = await pendingLogin();
    client.sendXsrf = false;
    const res = await client.post('/auth/login/checkpoint', {
      confirmation_token: token,
      authentication_code: await totpCode(secret, 30),
    });
    expect(res.status).toBe(419);
  });
});
