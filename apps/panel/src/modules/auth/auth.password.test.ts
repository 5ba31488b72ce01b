import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { mailText, startSmtpServer, type CapturedMail } from '../../test-support/smtp.ts';
import { enableTwoFactor } from '../../test-support/totp.ts';

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const SENT = { status: 'We have e-mailed your password reset link!' };

/** A client whose requests come from an address of their own. */
const fromNewIp = (): TestClient => TestClient.fromNewIp(panel.url);

async function mailTo(email: string): Promise<CapturedMail[]> {
  // Waits for the mail with a generous bound: a loaded machine may be slow, never wrong.
  const deadline = Date.now() + 10_000;
  while (!smtp.mails.some((m) => m.to.includes(email)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return smtp.mails.filter((m) => m.to.includes(email));
}

/** Requests a reset for `email` and returns the token and email of the link in the mail. */
async function requestLink(email: string): Promise<{ token: string; email: string; url: string }> {
  const client = fromNewIp();
  await client.get('/sanctum/csrf-cookie');
  const res = await client.post('/auth/password', { email });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(SENT);
  const [mail] = await mailTo(email);
  expect(mail).toBeDefined();
  const text = mailText(mail!.raw);
  const m = /(http:\/\/\S+\/auth\/password\/reset\/([A-Za-z0-9]+)\?email=(\S+))/u.exec(text);
  expect(m).not.toBeNull();
  return { url: m![1]!, token: m![2]!, email: decodeURIComponent(m![3]!) };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  panel = await startTestPanel({
    TRUSTED_PROXIES: '127.0.0.1',
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtp.port),
    MAIL_ENCRYPTION: 'none',
  });
});
afterAll(async () => {
  await panel.close();
  await smtp.close();
});

describe('POST /auth/password', () => {
  it('mails a working link to an existing account and answers the same for an unknown one', async () => {
    const user = await panel.createUser({ password: 'old-password-1' });
    const link = await requestLink(user.email);
    expect(link.url.startsWith(`${panel.url}/auth/password/reset/`)).toBe(true);
    expect(link.token).toHaveLength(64);
    expect(link.email).toBe(user.email);
    // The page of the link is served (the web app's reset form).
    const page = await fromNewIp().get(new URL(link.url).pathname + new URL(link.url).search);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/u);
    // The token is stored hashed.
    const row = await panel.ctx.db.db
      .selectFrom('password_resets')
      .selectAll()
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBe(link.token);

    const before = smtp.mails.length;
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const unknown = await client.post('/auth/password', { email: 'nobody-at-all@example.com' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(SENT);
    // A second request for the existing account inside a minute: same answer, no second mail.
    const again = await client.post('/auth/password', { email: user.email });
    expect(again.body).toEqual(SENT);
    // The acknowledgement is a mail that is sent, requested afterwards: the panel has sent a
    // request's mail (or not) before it answers, and the test server keeps mails in arrival order,
    // so once this one is in, a second mail for the first account would be in before it.
    const witness = await panel.createUser({ password: 'old-password-1' });
    await requestLink(witness.email);
    expect(smtp.mails.slice(before).flatMap((m) => m.to)).toEqual([witness.email]);
  });

  it('validates the email (422) after trimming', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const missing = await client.post('/auth/password', { email: '   ' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'The email field is required.',
        meta: { source_field: 'email', rule: 'required' },
      },
    ]);
    const client2 = fromNewIp();
    await client2.get('/sanctum/csrf-cookie');
    const bad = await client2.post('/auth/password', { email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(firstError(bad)).toMatchObject({
      detail: 'The email must be a valid email address.',
      meta: { source_field: 'email', rule: 'email' },
    });
  });

  it('allows 2 requests per minute per address', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    expect((await client.post('/auth/password', { email: 'a@example.com' })).status).toBe(200);
    expect((await client.post('/auth/password', { email: 'b@example.com' })).status).toBe(200);
    const third = await client.post('/auth/password', { email: 'c@example.com' });
    expectError(third, 429, 'ThrottleRequestsException', 'Too Many Attempts.');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('needs the XSRF header (419)', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    client.sendXsrf = false;
    expect((await client.post('/auth/password', { email: 'a@example.com' })).status).toBe(419);
  });
});

describe('POST /auth/password/reset', () => {
  it('sets the new password from the mailed link once, signs the caller in and ends other sessions', async () => {
    const user = await panel.createUser({ password: 'old-password-1' });
    const elsewhere = await panel.signedIn(user);
    expect((await elsewhere.get('/api/client/account')).status).toBe(200);
    const link = await requestLink(user.email);

    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const body = {
      token: link.token,
      email: link.email,
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    };
    const res = await client.post('/auth/password/reset', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, redirect_to: '/', send_to_login: false });
    expect((await client.get('/api/client/account')).body.attributes.username).toBe(user.username);
    expect((await elsewhere.get('/api/client/account')).status).toBe(401);
    expect((await fromNewIp().login(user.username, 'old-password-1')).status).toBe(400);
    expect((await fromNewIp().login(user.username, 'new-password-1')).status).toBe(200);

    const reuse = fromNewIp();
    await reuse.get('/sanctum/csrf-cookie');
    const again = await reuse.post('/auth/password/reset', {
      ...body,
      password: 'third-pass-1',
      password_confirmation: 'third-pass-1',
    });
    expectError(again, 400, 'DisplayException', 'This password reset token is invalid.');
  });

  it('refuses a token older than 60 minutes, a wrong token and an unknown email alike', async () => {
    const user = await panel.createUser({ password: 'old-password-1' });
    const link = await requestLink(user.email);
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const body = {
      token: link.token,
      email: user.email,
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    };
    for (const attempt of [
      { ...body, token: 'a'.repeat(64) },
      { ...body, email: 'nobody-else@example.com' },
    ]) {
      const res = await client.post('/auth/password/reset', attempt);
      expect(res.status).toBe(400);
      expect(firstError(res).detail).toBe('This password reset token is invalid.');
    }
    const old = new Date(Date.now() - 61 * 60_000).toISOString();
    await panel.ctx.db.db
      .updateTable('password_resets')
      .set({ created_at: old })
      .where('email', '=', user.email)
      .execute();
    const expired = await client.post('/auth/password/reset', body);
    expect(expired.status).toBe(400);
    expect(firstError(expired).detail).toBe('This password reset token is invalid.');
    expect((await fromNewIp().login(user.username, 'old-password-1')).status).toBe(200);
  });

  it('validates its input (422 per field)', async () => {
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const res = await client.post('/auth/password/reset', {
      token: 'x',
      email: 'bad',
      password: 'short',
      password_confirmation: 'other',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { meta: unknown }) => e.meta)).toEqual([
      { source_field: 'email', rule: 'email' },
      { source_field: 'password', rule: 'confirmed' },
      { source_field: 'password', rule: 'min' },
    ]);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The email must be a valid email address.',
      'The password confirmation does not match.',
      'The password must be at least 8 characters.',
    ]);
    const empty = await client.post('/auth/password/reset', {});
    expect(empty.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
      'The token field is required.',
      'The email field is required.',
      'The password field is required.',
    ]);
  });

  it('sends a user with two-factor to the sign-in page instead of signing them in', async () => {
    const user = await panel.createUser({ password: 'old-password-1' });
    await enableTwoFactor(panel, user);
    const link = await requestLink(user.email);
    const client = fromNewIp();
    await client.get('/sanctum/csrf-cookie');
    const res = await client.post('/auth/password/reset', {
      token: link.token,
      email: link.email,
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    });
    expect(res.body).toEqual({ success: true, redirect_to: '/', send_to_login: true });
    expect((await client.get('/api/client/account')).status).toBe(401);
  });
});
