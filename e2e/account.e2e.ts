import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  decodeMail,
  screenshots,
  totp,
  totpStep,
  waitForNextTotpStep,
  type MailCatcher,
  type Panel,
} from './harness.ts';
import { startWorld, type World } from './world.ts';

const alice = { email: 'alice@example.test', username: 'alice', password: 'first-password-1' };
const NEW_EMAIL = 'alice.new@example.test';
const NEW_PASSWORD = 'second-password-2';
const RESET_PASSWORD = 'third-password-3';

let world: World;
let smtp: MailCatcher;
let panel: Panel;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let recoveryCodes: string[] = [];
let totpSecret = '';
let lastTotpStep = 0;

async function signIn(username: string, password: string) {
  await page.goto(`${panel.url}/auth/login`);
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${panel.url}/auth/login`);
}

describe('sign-in and account area in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [alice], mail: true });
    ({ panel, browser } = world);
    smtp = world.mail!;
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('response', (r) => {
      if (r.status() >= 400) console.log('HTTP', r.status(), r.request().method(), r.url());
    });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('computes RFC 6238 codes (test vector)', () => {
    // RFC 6238 appendix B, SHA-1, T = 59 s → 94287082; the 6-digit code is its last six digits.
    expect(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
  });

  it('redirects a visitor without a session to the login page', async () => {
    await page.goto(`${panel.url}/`);
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.getByRole('heading', { name: 'Login to Continue' }).waitFor();
    await expect(page.title()).resolves.toBe('Login');
    await screenshots(page, 'auth-login');
  });

  it('shows the other auth screens: forgot password and not found', async () => {
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${panel.url}/auth/password`);
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText('A valid email address must be provided to continue.').waitFor();
    await screenshots(page, 'auth-forgot-password');
    await page.goto(`${panel.url}/auth/nothing-here`);
    await page.getByRole('heading', { name: '404' }).waitFor();
    await screenshots(page, 'auth-not-found');
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
  });

  it('shows the error for a wrong password', async () => {
    await signIn(alice.username, 'not-the-password');
    await page.getByText('No account matching those credentials could be found.').waitFor();
    expect(page.url()).toBe(`${panel.url}/auth/login`);
    await screenshots(page, 'auth-login-error');
  });

  it('shows the admin link to root admins only, and a search button at every width', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const adminPage = await adminContext.newPage();
    await adminPage.goto(`${panel.url}/auth/login`);
    await adminPage.getByLabel('Username or Email').fill(panel.admin.username);
    await adminPage.getByLabel('Password').fill(panel.admin.password);
    await adminPage.getByRole('button', { name: 'Login' }).click();
    await adminPage.waitForURL(`${panel.url}/`);
    expect(await adminPage.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    await screenshots(adminPage, 'dashboard-admin');
    await adminPage.setViewportSize({ width: 390, height: 844 });
    expect(await adminPage.getByRole('button', { name: 'Search' }).isVisible()).toBe(true);
    await adminContext.close();
  });

  it('signs in and shows the empty dashboard', async () => {
    await signIn(alice.username, alice.password);
    await page.waitForURL(`${panel.url}/`);
    await page.getByText('There are no servers associated with your account.').waitFor();
    await expect(page.title()).resolves.toBe('Dashboard');
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await page.getByText(`2015 - ${new Date().getFullYear()}`).count()).toBe(1);
    await screenshots(page, 'dashboard');
  });

  it('shows the signed-in 404 page', async () => {
    await page.goto(`${panel.url}/no/such/page`);
    await page.getByText('The requested resource was not found.').waitFor();
    await screenshots(page, 'not-found');
  });

  it('changes the email address', async () => {
    await page.goto(`${panel.url}/account`);
    await page.getByRole('heading', { name: 'Update Email Address' }).waitFor();
    await screenshots(page, 'account');
    const emailForm = page.getByRole('region', { name: 'Update Email Address' });
    await emailForm.getByLabel('Email').fill(NEW_EMAIL);
    await emailForm.getByLabel('Confirm Password').fill('wrong-password');
    await emailForm.getByRole('button', { name: 'Update Email' }).click();
    await emailForm.getByText('The password provided was invalid for this account.').waitFor();
    await emailForm.getByLabel('Confirm Password').fill(alice.password);
    await emailForm.getByRole('button', { name: 'Update Email' }).click();
    await emailForm.getByText('Your primary email has been updated.').waitFor();
    expect(await emailForm.getByLabel('Confirm Password').inputValue()).toBe('');
    await screenshots(page, 'account-email-updated');
    const res = await page.request.get(`${panel.url}/api/client/account`, {
      headers: { Accept: 'application/json' },
    });
    expect(((await res.json()) as { attributes: { email: string } }).attributes.email).toBe(NEW_EMAIL);
  });

  it('enables two-factor with a code computed from the secret on screen; recovery codes shown once', async () => {
    await page.goto(`${panel.url}/account`);
    await page.getByRole('button', { name: 'Enable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable Two-Factor' });
    await dialog.getByRole('img', { name: 'QR code to scan with an authenticator application' }).waitFor();
    totpSecret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
    expect(totpSecret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshots(page, 'account-2fa-setup');

    await dialog.getByLabel('Authentication Code').fill('12');
    await dialog.getByRole('button', { name: 'Enable Two-Factor' }).click();
    await dialog.getByText('Authenticator code must be 6 digits.').waitFor();

    lastTotpStep = totpStep();
    await dialog.getByLabel('Authentication Code').fill(totp(totpSecret));
    await dialog.getByRole('button', { name: 'Enable Two-Factor' }).click();
    const codes = page.getByRole('dialog', { name: 'Two-factor authentication enabled' });
    await codes.getByTestId('recovery-codes').waitFor();
    recoveryCodes = await codes.getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await screenshots(page, 'account-2fa-recovery-codes');

    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    expect(await codes.isVisible()).toBe(true);
    await codes.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();

    await page.reload();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
    expect(await page.getByText(recoveryCodes[0]!).count()).toBe(0);
  });

  it('signs out, then signs in with a TOTP code', async () => {
    await signOut();
    await signIn(alice.username, alice.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByLabel('Authentication Code').waitFor();
    await screenshots(page, 'auth-checkpoint');
    await waitForNextTotpStep(lastTotpStep);
    lastTotpStep = totpStep();
    await page.getByLabel('Authentication Code').fill(totp(totpSecret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.getByText('There are no servers associated with your account.').waitFor();
  });

  it('signs in with a recovery code, which is refused the second time', async () => {
    await signOut();
    await signIn(NEW_EMAIL, alice.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: 'Lost Device' }).click();
    await page.getByLabel('Recovery Code').fill(recoveryCodes[0]!);
    await screenshots(page, 'auth-checkpoint-recovery');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);

    await signOut();
    await signIn(alice.username, alice.password);
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await page.getByRole('button', { name: 'Lost Device' }).click();
    await page.getByLabel('Recovery Code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('The recovery token provided is not valid.').waitFor();
    expect(page.url()).toBe(`${panel.url}/auth/login/checkpoint`);

    await page.getByLabel('Recovery Code').fill(recoveryCodes[1]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);
  });

  it('creates an API key, uses it, deletes it', async () => {
    await page.goto(`${panel.url}/account/api`);
    await page.getByText('No API keys exist for this account.').waitFor();
    await screenshots(page, 'account-api-empty');
    await page.getByLabel('Description').fill('e2e key');
    await page.getByRole('button', { name: 'Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your API Key' });
    const token = (await dialog.getByTestId('created-api-key').textContent())!.trim();
    expect(token).toMatch(/^ptlc_[A-Za-z0-9]{11}[A-Za-z0-9]{32}$/);
    await screenshots(page, 'account-api-key-created');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const ok = await fetch(`${panel.url}/api/client/account`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { attributes: { username: string } }).attributes.username).toBe('alice');

    await page.reload();
    await page.getByText('e2e key').waitFor();
    await page.getByText(/^Last used: [A-Z][a-z]{2} \d{1,2}(st|nd|rd|th), \d{4} \d{2}:\d{2}$/).waitFor();
    await screenshots(page, 'account-api-list');

    await page.getByRole('button', { name: `Delete API key ${token.slice(0, 16)}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete API Key' });
    await confirm
      .getByText(
        'Are you sure you wish to delete this API key? All requests using it will immediately be invalidated and will fail.',
      )
      .waitFor();
    await screenshots(page, 'account-api-delete');
    await confirm.getByRole('button', { name: 'Yes, delete key' }).click();
    await page.getByText('No API keys exist for this account.').waitFor();

    const refused = await fetch(`${panel.url}/api/client/account`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    expect(refused.status).toBe(401);
  });

  it('disables two-factor with the password', async () => {
    await page.goto(`${panel.url}/account`);
    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable Two-Factor' });
    await dialog.getByLabel('Password').fill('wrong');
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'password' }).waitFor();
    await dialog.getByLabel('Password').fill(alice.password);
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
  });

  it('changes the password and lands on the login page', async () => {
    const form = page.getByRole('region', { name: 'Update Password' });
    const submit = form.getByRole('button', { name: 'Update Password' });
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Current Password').fill(alice.password);
    await form.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await submit.click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.getByRole('heading', { name: 'Login to Continue' }).waitFor();
    // Signed out: the next sign-in uses the new password (not exercised here: the panel allows 10
    // sign-in attempts a minute per address and this file already used them).
    const res = await page.request.get(`${panel.url}/api/client/account`, {
      headers: { Accept: 'application/json' },
    });
    expect(res.status()).toBe(401);
  });

  it('resets a forgotten password through the mailed link', async () => {
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The screen is a lazy route: until its code has loaded the login form stays on screen, and its
    // "Username or Email" field also answers to a loose getByLabel('Email'). Filling that one and
    // then sending the reset form empty was this test's flake (the reset page said "A valid email
    // address must be provided"), so wait for the reset screen and name its field exactly.
    await page.getByRole('heading', { name: 'Request Password Reset' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(NEW_EMAIL);
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText('Success').waitFor();
    await screenshots(page, 'auth-forgot-password-sent');

    const mail = decodeMail((await smtp.waitFor(NEW_EMAIL)).raw);
    const link = /https?:\/\/\S+\/auth\/password\/reset\/[^\s"<>]+/.exec(mail)?.[0];
    expect(link, mail).toBeDefined();
    expect(link!.startsWith(panel.url)).toBe(true);

    await page.goto(link!.replace(/&amp;/g, '&'));
    expect(await page.getByLabel('Email').inputValue()).toBe(NEW_EMAIL);
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm New Password').fill('other');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Your new password should be at least 8 characters in length.').waitFor();
    await screenshots(page, 'auth-reset-password');
    await page.getByLabel('New Password', { exact: true }).fill(RESET_PASSWORD);
    await page.getByLabel('Confirm New Password').fill(RESET_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL(`${panel.url}/`);
    await page.getByText('There are no servers associated with your account.').waitFor();
    // The reset signed alice in (she has no 2FA now).
    const res = await page.request.get(`${panel.url}/api/client/account`, {
      headers: { Accept: 'application/json' },
    });
    expect(((await res.json()) as { attributes: { username: string } }).attributes.username).toBe('alice');
  });
});
