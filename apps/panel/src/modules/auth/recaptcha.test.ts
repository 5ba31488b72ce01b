import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The captcha provider is the one thing that cannot run here: a local stand-in plays its
// siteverify endpoint, accepting exactly the response "human".
let provider: Server;
let seen: URLSearchParams[] = [];
let panel: TestPanel;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          success: form.get('response') === 'human' && form.get('secret') === 'server-secret',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const address = provider.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  panel = await startTestPanel({
    RECAPTCHA_ENABLED: 'true',
    RECAPTCHA_SITE_KEY: 'site-key',
    RECAPTCHA_SECRET_KEY: 'server-secret',
    RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
  });
});
afterAll(async () => {
  await panel.close();
  await new Promise((resolve) => provider.close(resolve));
});

describe('reCAPTCHA on sign-in', () => {
  it('refuses a sign-in without a valid captcha response and accepts one with it', async () => {
    const user = await panel.createUser({ password: 'hunter2hunter2' });
    const client = new TestClient(panel.url);
    await client.get('/sanctum/csrf-cookie');
    seen = [];
    for (const captcha of [undefined, 'robot']) {
      const res = await client.post('/auth/login', {
        user: user.username,
        password: 'hunter2hunter2',
        ...(captcha ? { 'g-recaptcha-response': captcha } : {}),
      });
      expectError(res, 400, 'HttpException', 'Failed to validate reCAPTCHA data.');
    }
    expect(seen.map((f) => f.get('response'))).toEqual(['robot']);
    const ok = await client.post('/auth/login', {
      user: user.username,
      password: 'hunter2hunter2',
      'g-recaptcha-response': 'human',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.complete).toBe(true);
  });

  it('puts the site key, never the secret, into the page', async () => {
    const res = await new TestClient(panel.url).get('/auth/login');
    expect(res.text).toContain('"recaptcha":{"enabled":true,"siteKey":"site-key"}');
    expect(res.text).not.toContain('server-secret');
  });

  it('also guards password-reset requests', async () => {
    const client = new TestClient(panel.url);
    await client.get('/sanctum/csrf-cookie');
    const res = await client.post('/auth/password', { email: 'someone@example.com' });
    expect(res.status).toBe(400);
    expect(firstError(res).detail).toBe('Failed to validate reCAPTCHA data.');
  });
});
