import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, screenshots, startPanel, type Panel } from './harness.ts';

let panel: Panel;
let browser: Browser;

describe('two-factor required for all users (APP_2FA_REQUIRED=2)', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel({ env: { APP_2FA_REQUIRED: '2' } });
    panel.createUser({ email: 'bob@example.test', username: 'bob', password: 'bob-password-1' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('forces the 2-Factor Required banner on the account page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${panel.url}/auth/login`);
    await page.getByLabel('Username or Email').fill('bob');
    await page.getByLabel('Password').fill('bob-password-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${panel.url}/account`);
    await page.getByText('2-Factor Required').waitFor();
    await page
      .getByText('Your account must have two-factor authentication enabled in order to continue.')
      .waitFor();
    await screenshots(page, 'account-2fa-required');

    // Client-side navigation elsewhere: the server list answers TwoFactorAuthRequiredException
    // and the app comes back here with the flag.
    const blocked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/client');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const response = await blocked;
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe(
      'TwoFactorAuthRequiredException',
    );
    await page.waitForURL(`${panel.url}/account`);
    await page.getByText('2-Factor Required').waitFor();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await page.getByText('There are no servers associated with your account.').count()).toBe(0);
    await page.close();
  });
});
