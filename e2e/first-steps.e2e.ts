import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, screenshots, startPanel, type Panel } from './harness.ts';
import { signIn } from './servers.ts';

// Issue 24 (items 1 and 6): a new operator's first evening. A panel as a fresh install has it (no
// MAIL_FROM_ADDRESS: the Settings screen shows the panel's own default sender), driven by the
// printed admin.

let panel: Panel;
let browser: Browser;
let admin: Page;

describe('a fresh panel’s first steps in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel({ unsetEnv: ['MAIL_FROM_ADDRESS'] });
    browser = await launchBrowser();
    admin = await newPage(browser);
    await signIn(admin, panel.url, panel.admin.username, panel.admin.password);
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('saves the Settings screen as shipped, with its default sender no-reply@localhost', async () => {
    await admin.goto(`${panel.url}/admin/settings`);
    const sender = admin.getByLabel('Sender address');
    await expect.poll(() => sender.inputValue()).toBe('no-reply@localhost');
    await admin.getByLabel('Site name').fill('First Evening Hosting');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => admin.getByText('The settings were saved.').isVisible()).toBe(true);
    expect(await admin.getByText('Enter a valid email address.').count()).toBe(0);
    await admin.reload();
    await expect.poll(() => admin.getByLabel('Site name').inputValue()).toBe('First Evening Hosting');
    expect(await admin.getByLabel('Sender address').inputValue()).toBe('no-reply@localhost');
  });

  it('names the field that blocks a save and brings it into view with the focus', async () => {
    await admin.goto(`${panel.url}/admin/settings`);
    const sender = admin.getByLabel('Sender address');
    await expect.poll(() => sender.inputValue()).toBe('no-reply@localhost');
    await sender.fill('no-reply@');
    await admin.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => admin.getByText('Not saved: correct Sender address first.').isVisible())
      .toBe(true);
    await expect.poll(() => sender.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect
      .poll(() =>
        sender.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await screenshots(admin, 'first-steps-settings-blocked');
    await sender.fill('no-reply@localhost');
    await expect.poll(() => admin.getByText(/^Not saved:/u).count()).toBe(0);
  });
});
