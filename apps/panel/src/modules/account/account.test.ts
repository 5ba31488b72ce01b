import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../lib/passwords.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { KEY_TYPE } from '../api-keys/api-keys.service.ts';

let panel: TestPanel;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
});

async function keyFor(user: Parameters<TestPanel['signedIn']>[0]): Promise<TestClient> {
  const { key, secret } = await panel.ctx.services.apiKeys.create(user, KEY_TYPE.client, {
    description: 'test',
  });
  return TestClient.withKey(panel.url, key.identifier + secret);
}

describe('GET /api/client/account', () => {
  it('returns the account by session and by API key; 401 otherwise', async () => {
    const user = await panel.createUser({ admin: true });
    for (const client of [await panel.signedIn(user), await keyFor(user)]) {
      const res = await client.get('/api/client/account');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        object: 'user',
        attributes: {
          id: user.id,
          admin: true,
          username: user.username,
          email: user.email,
          first_name: user.name_first,
          last_name: user.name_last,
          language: 'en',
        },
      });
    }
    const guest = await new TestClient(panel.url).get('/api/client/account');
    expectError(guest, 401, 'AuthenticationException', 'Unauthenticated.');
    expect(
      (await TestClient.withKey(panel.url, `ptlc_${'a'.repeat(43)}`).get('/api/client/account')).status,
    ).toBe(401);
  });
});

describe('PUT /api/client/account/email', () => {
  it('checks the password first (400) and changes nothing', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    for (const body of [
      { email: 'new@example.com', password: 'wrong-password' },
      { email: 'not an email' },
    ]) {
      const res = await client.put('/api/client/account/email', body);
      expectError(
        res,
        400,
        'InvalidPasswordProvidedException',
        'The password provided was invalid for this account.',
      );
    }
    expect((await client.get('/api/client/account')).body.attributes.email).toBe(user.email);
  });

  it('validates the email: 422 invalid, 422 taken', async () => {
    const user = await panel.createUser();
    const other = await panel.createUser();
    const client = await panel.signedIn(user);
    const bad = await client.put('/api/client/account/email', { email: 'nope', password: PASSWORD });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email must be a valid email address.',
        meta: { source_field: 'email', rule: 'email' },
      },
    ]);
    const blank = await client.put('/api/client/account/email', { email: '   ', password: PASSWORD });
    expect(blank.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email field is required.',
        meta: { source_field: 'email', rule: 'required' },
      },
    ]);
    const taken = await client.put('/api/client/account/email', {
      email: other.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(taken.status).toBe(422);
    expect(firstError(taken)).toEqual({
      code: 'ValidationException',
      status: '422',
      detail: 'The email has already been taken.',
      meta: { source_field: 'email', rule: 'unique' },
    });
  });

  it('changes the email (204) and records user:account.email-changed', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const next = `  Changed-${user.username}@Example.com `;
    const res = await client.put('/api/client/account/email', { email: next, password: PASSWORD });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const expected = next.trim().toLowerCase();
    expect((await client.get('/api/client/account')).body.attributes.email).toBe(expected);
    const activity = await client.get('/api/client/account/activity?filter[event]=email-changed');
    expect(activity.body.data).toHaveLength(1);
    expect(activity.body.data[0].attributes).toMatchObject({
      event: 'user:account.email-changed',
      is_api: false,
      properties: { old: user.email, new: expected },
    });
  });

  it('refuses a session request without the XSRF header (419) and a guest (401)', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    client.sendXsrf = false;
    const res = await client.put('/api/client/account/email', { email: 'x@example.com', password: PASSWORD });
    expectError(res, 419, 'HttpException', 'CSRF token mismatch.');
    expect((await new TestClient(panel.url).put('/api/client/account/email', {})).status).toBe(401);
    expect((await client.get('/api/client/account')).body.attributes.email).toBe(user.email);
  });
});

describe('PUT /api/client/account/password', () => {
  it('checks the current password, then the rules', async () => {
    const user = await panel.createUser();
    const client = await panel.signedIn(user);
    const wrong = await client.put('/api/client/account/password', {
      current_password: 'nope',
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    });
    expect(wrong.status).toBe(400);
    expect(firstError(wrong).code).toBe('InvalidPasswordProvidedException');
    const mismatch = await client.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'new-password-1',
      password_confirmation: 'new-password-2',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The password confirmation does not match.',
        meta: { source_field: 'password', rule: 'confirmed' },
      },
    ]);
    const short = await client.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The password must be at least 8 characters.',
        meta: { source_field: 'password', rule: 'min' },
      },
    ]);
    const stored = (await panel.ctx.repositories.users.findById(user.id))!.password;
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
  });

  it('changes the password; other sessions end, this one and API keys keep working', async () => {
    const user = await panel.createUser();
    const current = await panel.signedIn(user);
    const other = await panel.signedIn(user);
    const key = await keyFor(user);
    const res = await current.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: ' new password with spaces ',
      password_confirmation: ' new password with spaces ',
    });
    expect(res.status).toBe(204);
    expect((await current.get('/api/client/account')).status).toBe(200);
    expect((await other.get('/api/client/account')).status).toBe(401);
    expect((await key.get('/api/client/account')).status).toBe(200);
    const stored = (await panel.ctx.repositories.users.findById(user.id))!.password;
    expect(stored).toMatch(/^\$argon2id\$/u);
    // Passwords are not trimmed.
    expect(await verifyPassword(stored, ' new password with spaces ')).toBe(true);
    const events = await current.get('/api/client/account/activity');
    expect(events.body.data.map((e: { attributes: { event: string } }) => e.attributes.event)).toContain(
      'user:account.password-changed',
    );
  });

  it('through an API key, ends every session of the user', async () => {
    const user = await panel.createUser();
    const session = await panel.signedIn(user);
    const key = await keyFor(user);
    const res = await key.put('/api/client/account/password', {
      current_password: PASSWORD,
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    });
    expect(res.status).toBe(204);
    expect((await session.get('/api/client/account')).status).toBe(401);
    expect((await key.get('/api/client/account')).status).toBe(200);
  });
});
