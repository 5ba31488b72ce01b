import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodeMail, screenshots, type MailCatcher, type Panel } from './harness.ts';
import { signIn } from './servers.ts';
import { startWorld, type World } from './world.ts';

// Issue 24 (items 1 and 6): a new operator's first evening. A panel as a fresh install has it (no
// MAIL_FROM_ADDRESS: the Settings screen shows the panel's own default sender), driven by the
// printed admin.

let world: World;
let panel: Panel;
let smtp: MailCatcher;
let admin: Page;

describe('a fresh panel’s first steps in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [], mail: true, unsetEnv: ['MAIL_FROM_ADDRESS'] });
    ({ panel, page: admin } = world);
    smtp = world.mail!;
    await signIn(admin, panel.url, panel.admin.username, panel.admin.password);
  });

  afterAll(async () => {
    await world?.close();
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

  it('lists the owner’s account before their server in the first steps', async () => {
    await admin.goto(`${panel.url}/admin`);
    const steps = admin.getByRole('region', { name: 'First steps' }).getByRole('listitem');
    await expect.poll(() => steps.count()).toBe(4);
    expect(await steps.nth(2).textContent()).toContain('Invite its owner');
    expect(await steps.nth(3).textContent()).toContain('Create a server');
  });

  it('creates the owner from the create-server form ("New user"), who gets the mail to set a password', async () => {
    await admin.goto(`${panel.url}/admin/servers/new`);
    await admin.getByRole('button', { name: 'New user' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New user as the owner' });
    await dialog.getByLabel('Email').fill('newbie@example.test');
    await dialog.getByLabel('Username').fill('newbie');
    await dialog.getByLabel('First name').fill('Nora');
    await dialog.getByLabel('Last name').fill('Newbie');
    await screenshots(admin, 'first-steps-new-owner');
    await dialog.getByRole('button', { name: 'Create and choose' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(() => admin.getByRole('combobox', { name: 'Owner' }).inputValue())
      .toBe('newbie (newbie@example.test)');

    // The usual welcome mail, with the link to set a password.
    const mail = decodeMail((await smtp.waitFor('newbie@example.test')).raw);
    expect(mail).toMatch(/\/auth\/password\/reset\/[^\s"<>]+/u);

    await admin.getByLabel('Server name').fill('Nora World');
    await admin.getByRole('button', { name: 'Create server' }).click();
    await admin.waitForURL(/\/admin\/servers\/view\/\d+$/u);
    await expect.poll(() => admin.getByText('newbie', { exact: false }).first().isVisible()).toBe(true);
  });

  it('keeps the create-server form as it was when the new user is refused, and says why beside the field', async () => {
    await admin.goto(`${panel.url}/admin/servers/new`);
    await admin.getByLabel('Server name').fill('Second World');
    await admin.getByRole('button', { name: 'New user' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New user as the owner' });
    await dialog.getByLabel('Email').fill('newbie@example.test');
    await dialog.getByLabel('Username').fill('newbie2');
    await dialog.getByLabel('First name').fill('Nora');
    await dialog.getByLabel('Last name').fill('Again');
    await dialog.getByRole('button', { name: 'Create and choose' }).click();
    await expect.poll(() => dialog.getByText('The email has already been taken.').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await admin.getByLabel('Server name').inputValue()).toBe('Second World');
    expect(await admin.getByRole('combobox', { name: 'Owner' }).inputValue()).toBe('');
  });
});
