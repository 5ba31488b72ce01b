import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decrypt } from '../../lib/crypto.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { enableTwoFactor, totpCode } from '../../test-support/totp.ts';
import { KEY_TYPE } from '../api-keys/api-keys.service.ts';

let panel: TestPanel;
const PASSWORD = 'correct horse battery';
const NOT_VALID = 'The password provided was not valid.';

beforeAll(async () => {
  panel = await startTestPanel({ APP_NAME: 'Talon Test Panel' });
});
afterAll(async () => {
  await panel.close();
});

async function setup(client: TestClient): Promise<string> {
  const res = await client.get('/api/client/account/two-factor');
  expect(res.status).toBe(200);
  return res.body.data.secret as string;
}

describe('GET /api/client/account/two-factor', () => {
  it('returns a new secret on every call with its otpauth URL, stored encrypted', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const first = await client.get('/api/client/account/two-factor');
    const second = await client.get('/api/client/account/two-factor');
    expect(Object.keys(first.body)).toEqual(['data']);
    const { secret, image_url_data: url } = second.body.data as { secret: string; image_url_data: string };
    expect(secret).not.toBe(first.body.data.secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/u);
    const parsed = new URL(url);
    expect(parsed.protocol).toBe('otpauth:');
    expect(url.startsWith(`otpauth://totp/TalonTestPanel:${encodeURIComponent(user.email)}?`)).toBe(true);
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe('TalonTestPanel');
    const stored = (await panel.ctx.repositories.users.findById(user.id))!.totp_secret!;
    expect(stored).not.toContain(secret);
    expect(decrypt(panel.ctx.config.appKey, stored)).toBe(secret);
  });

  it('answers 400 when two-factor is already on, 401 to a guest', async () => {
    const user = await panel.createUser();
    await enableTwoFactor(panel, user);
    const res = await (await panel.signedIn(user)).get('/api/client/account/two-factor');
    expectError(
      res,
      400,
      'BadRequestHttpException',
      'Two-factor authentication is already enabled on this account.',
    );
    expect((await new TestClient(panel.url).get('/api/client/account/two-factor')).status).toBe(401);
  });
});

describe('POST /api/client/account/two-factor', () => {
  it('enables with a code alone and returns 10 recovery tokens, stored hashed', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const secret = await setup(client);
    const res = await client.post('/api/client/account/two-factor', { code: await totpCode(secret) });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('recovery_tokens');
    const tokens = res.body.attributes.tokens as string[];
    expect(tokens).toHaveLength(10);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9]{10}$/u);
    expect(new Set(tokens).size).toBe(10);
    const rows = await panel.ctx.repositories.recoveryTokens.forUser(user.id);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(tokens).not.toContain(row.token);
      expect(row.token).toMatch(/^\$argon2id\$/u);
    }
    expect((await panel.ctx.repositories.users.findById(user.id))!.use_totp).toBe(1);
    const activity = await client.get('/api/client/account/activity');
    expect(activity.body.data.map((e: { attributes: { event: string } }) => e.attributes.event)).toContain(
      'user:two-factor.create',
    );
  });

  it('enables with code and password; a wrong password is refused first', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const secret = await setup(client);
    const code = await totpCode(secret);
    const wrong = await client.post('/api/client/account/two-factor', { code, password: 'nope-nope' });
    expectError(wrong, 400, 'BadRequestHttpException', NOT_VALID);
    const ok = await client.post('/api/client/account/two-factor', { code, password: PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('refuses a wrong code (400), a code that is not 6 characters (422), no set-up (400)', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const none = await client.post('/api/client/account/two-factor', { code: '123456' });
    expect(none.status).toBe(400);
    expect(firstError(none).code).toBe('BadRequestHttpException');
    const secret = await setup(client);
    const code = await totpCode(secret);
    const bad = await client.post('/api/client/account/two-factor', {
      code: code === '999999' ? '000000' : '999999',
    });
    expectError(
      bad,
      400,
      'TwoFactorAuthenticationTokenInvalid',
      'The provided two-factor authentication token was not valid.',
    );
    const short = await client.post('/api/client/account/two-factor', { code: '12345' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The code must be 6 characters.',
        meta: { source_field: 'code', rule: 'size' },
      },
    ]);
    const missing = await client.post('/api/client/account/two-factor', {});
    expect(firstError(missing)).toMatchObject({
      detail: 'The code field is required.',
      meta: { source_field: 'code', rule: 'required' },
    });
    expect((await panel.ctx.repositories.users.findById(user.id))!.use_totp).toBe(0);
  });

  it('needs the XSRF header on a session (419)', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const secret = await setup(client);
    client.sendXsrf = false;
    expect(
      (await client.post('/api/client/account/two-factor', { code: await totpCode(secret) })).status,
    ).toBe(419);
  });
});

describe('disabling two-factor', () => {
  it('POST …/two-factor/disable: wrong password 400, right password 204, secret and tokens deleted', async () => {
    const user = await panel.createUser();
    await enableTwoFactor(panel, user);
    const client = await panel.signedIn(user);
    for (const body of [{ password: 'wrong-password' }, {}]) {
      const res = await client.post('/api/client/account/two-factor/disable', body);
      expectError(res, 400, 'BadRequestHttpException', NOT_VALID);
    }
    const res = await client.post('/api/client/account/two-factor/disable', { password: PASSWORD });
    expect(res.status).toBe(204);
    const stored = (await panel.ctx.repositories.users.findById(user.id))!;
    expect(stored.use_totp).toBe(0);
    expect(stored.totp_secret).toBeNull();
    expect(await panel.ctx.repositories.recoveryTokens.forUser(user.id)).toHaveLength(0);
    const activity = await client.get('/api/client/account/activity');
    expect(activity.body.data.map((e: { attributes: { event: string } }) => e.attributes.event)).toContain(
      'user:two-factor.delete',
    );
  });

  it('DELETE …/two-factor?password=…', async () => {
    const user = await panel.createUser();
    await enableTwoFactor(panel, user);
    const client = await panel.signedIn(user);
    expect((await client.delete('/api/client/account/two-factor?password=wrong-one')).status).toBe(400);
    const res = await client.delete(
      `/api/client/account/two-factor?password=${encodeURIComponent(PASSWORD)}`,
    );
    expect(res.status).toBe(204);
    expect((await panel.ctx.repositories.users.findById(user.id))!.use_totp).toBe(0);
  });
});

describe('the two-factor requirement', () => {
  const REQUIRED = {
    code: 'TwoFactorAuthRequiredException',
    status: '400',
    detail: 'Two-factor authentication is required on this account in order to access this endpoint.',
  };
  let everyone: TestPanel;
  let admins: TestPanel;

  beforeAll(async () => {
    [everyone, admins] = await Promise.all([
      startTestPanel({ APP_2FA_REQUIRED: '2' }),
      startTestPanel({ APP_2FA_REQUIRED: '1' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([everyone.close(), admins.close()]);
  });

  it('blocks every non-exempt route of a user without two-factor; the set-up routes still work', async () => {
    const user = await everyone.createUser();
    const client = await everyone.signedIn(user);
    for (const [method, path] of [
      ['GET', '/api/client'],
      ['GET', '/api/client/permissions'],
      ['GET', '/api/client/account/api-keys'],
      ['GET', '/api/client/account/activity'],
      ['PUT', '/api/client/account/email'],
    ] as const) {
      const res = await client.request(method, path, method === 'GET' ? undefined : {});
      expect(res.status, path).toBe(400);
      expect(firstError(res)).toEqual(REQUIRED);
    }
    expect((await client.get('/api/client/account')).status).toBe(200);
    const secret = (await client.get('/api/client/account/two-factor')).body.data.secret as string;
    const enabled = await client.post('/api/client/account/two-factor', { code: await totpCode(secret) });
    expect(enabled.status).toBe(200);
    expect((await client.get('/api/client/permissions')).status).toBe(200);
    // Turning it off again is allowed, and blocks again.
    expect((await client.post('/api/client/account/two-factor/disable', { password: PASSWORD })).status).toBe(
      204,
    );
    expect((await client.get('/api/client/permissions')).status).toBe(400);
  });

  it('applies to API keys too', async () => {
    const user = await everyone.createUser();
    const { key, secret } = await everyone.ctx.services.apiKeys.create(user, KEY_TYPE.client, {
      description: 'k',
    });
    const client = TestClient.withKey(everyone.url, key.identifier + secret);
    const res = await client.get('/api/client/permissions');
    expect(res.status).toBe(400);
    expect(firstError(res)).toEqual(REQUIRED);
    expect((await client.get('/api/client/account')).status).toBe(200);
  });

  it('redirects HTML pages to /account, except /account itself', async () => {
    const user = await everyone.createUser();
    const client = await everyone.signedIn(user);
    for (const path of ['/', '/account/api', '/server/abcd1234']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location')).toBe('/account');
    }
    expect((await client.get('/account')).status).toBe(200);
  });

  it('level 1 applies to root admins only, also on the application API', async () => {
    const admin = await admins.createUser({ admin: true });
    const user = await admins.createUser();
    const adminClient = await admins.signedIn(admin);
    expect(firstError(await adminClient.get('/api/client/permissions'))).toEqual(REQUIRED);
    expect((await (await admins.signedIn(user)).get('/api/client/permissions')).status).toBe(200);
    const { key, secret } = await admins.ctx.services.apiKeys.create(admin, KEY_TYPE.application, {
      description: 'app',
    });
    const res = await TestClient.withKey(admins.url, key.identifier + secret).get(
      '/api/application/not-a-route',
    );
    expect(res.status).toBe(400);
    expect(firstError(res)).toEqual(REQUIRED);
    await enableTwoFactor(admins, admin);
    expect((await adminClient.get('/api/client/permissions')).status).toBe(200);
  });
});
