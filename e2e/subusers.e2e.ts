import { createHash } from 'node:crypto';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { decodeMail, newPage, screenshots, type MailCatcher, type Panel } from './harness.ts';
import { signIn, waitForStatus, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

const owner = { email: 'owner@example.test', username: 'owner', password: 'owner-password-1' };
const MOD_EMAIL = 'mod@example.test';
const MOD_PASSWORD = 'moderator-password-1';

let world: World;
let smtp: MailCatcher;
let panel: Panel;
let browser: Browser;
/** The owner's page and the subuser's page, each in its own browser context. */
let ownerPage: Page;
let modPage: Page;
let server: CreatedServer;

/** The tab links of the server area, in order. */
const tabs = (page: Page) => page.getByTestId('server-tabs').getByRole('link').allTextContents();

async function openUsersTab(page: Page): Promise<void> {
  await page.goto(`${panel.url}/server/${server.identifier}/users`);
  await page.getByRole('heading', { name: 'Users' }).waitFor();
}

describe('subusers in Chromium against the real panel, daemon and mail', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner], mail: true });
    ({ panel, browser, page: ownerPage } = world);
    smtp = world.mail!;
    server = await world.server({ name: 'Team World', owner });
    modPage = await newPage(browser);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('the owner invites a new email with some permissions and a folder', async () => {
    await signIn(ownerPage, panel.url, owner.username, owner.password);
    await openUsersTab(ownerPage);
    await expect.poll(() => ownerPage.title()).toBe('Team World | Users');
    await ownerPage.getByText('Nobody else has access to this server yet.').waitFor();
    await ownerPage.getByRole('button', { name: 'New User' }).click();
    const dialog = ownerPage.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Invite a user' }).waitFor();
    // The spec's message, word for word, before anything is sent.
    await dialog.getByRole('button', { name: 'Invite User' }).click();
    await dialog.getByText('A valid email address must be provided.').waitFor();
    // The websocket group is not offered.
    await expect(dialog.getByTestId('permission-group-websocket').count()).resolves.toBe(0);

    await dialog.getByLabel('Email').fill(MOD_EMAIL);
    const group = (name: string) => dialog.getByTestId(`permission-group-${name}`);
    await group('control').getByRole('checkbox', { name: 'console', exact: true }).check();
    await group('file').getByRole('checkbox', { name: 'Every File permission' }).check();
    await group('activity').getByRole('checkbox', { name: 'read', exact: true }).check();
    await dialog.getByLabel('Limit to folders').fill('/plugins');
    await screenshots(ownerPage, 'server-users-modal');
    await dialog.getByRole('button', { name: 'Invite User' }).click();

    const row = ownerPage.locator('li', { hasText: MOD_EMAIL });
    await row.waitFor();
    await expect(ownerPage.getByRole('dialog').count()).resolves.toBe(0);
    // 1 control + 7 file + 1 activity; websocket.connect is not counted.
    await expect(row.getByTestId('subuser-permission-count').textContent()).resolves.toBe('9permissions');
    await expect(row.getByTestId('subuser-2fa').textContent()).resolves.toBe('2FA off');
    // No image can load here (no network): the initials stand in, never a broken image.
    await row.getByTestId('avatar-initials').waitFor();
    await screenshots(ownerPage, 'server-users');
  });

  // file.sftp (in "Every File permission") opens Settings for its SFTP details (spec 001 §2).
  it("the mail's link sets a password and the subuser sees only the tabs granted", async () => {
    const mail = decodeMail((await smtp.waitFor(MOD_EMAIL)).raw);
    const link = /https?:\/\/\S+\/auth\/password\/reset\/[^\s"<>]+/.exec(mail)?.[0];
    expect(link, mail).toBeDefined();
    await modPage.goto(link!.replace(/&amp;/g, '&'));
    await expect(modPage.getByLabel('Email').inputValue()).resolves.toBe(MOD_EMAIL);
    await modPage.getByLabel('New Password', { exact: true }).fill(MOD_PASSWORD);
    await modPage.getByLabel('Confirm New Password').fill(MOD_PASSWORD);
    await modPage.getByRole('button', { name: 'Reset Password' }).click();
    await modPage.waitForURL(`${panel.url}/`);

    await modPage.getByTestId('server-card').filter({ hasText: 'Team World' }).click();
    await modPage.waitForURL(`${panel.url}/server/${server.identifier}`);
    await expect.poll(() => tabs(modPage)).toEqual(['Console', 'Files', 'Settings', 'Activity']);
    await modPage.goto(`${panel.url}/server/${server.identifier}/users`);
    await modPage.getByText('You do not have permission to access this page.').waitFor();
  });

  it('the subuser works in the folder they were given', async () => {
    await modPage.goto(`${panel.url}/server/${server.identifier}/files`);
    await modPage.getByRole('button', { name: 'Create Directory' }).click();
    await modPage.getByLabel('Directory Name').fill('plugins');
    await modPage.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await modPage.getByRole('link', { name: 'plugins' }).waitFor();
  });

  it("removing control.console closes the subuser's open command input without a reload", async () => {
    // The owner starts the server; the subuser's console is open and may type.
    await ownerPage.goto(`${panel.url}/server/${server.identifier}`);
    await waitForStatus(ownerPage, panel, 'offline', 30_000);
    await ownerPage.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(ownerPage, panel, 'running', 60_000);
    await modPage.goto(`${panel.url}/server/${server.identifier}`);
    await waitForStatus(modPage, panel, 'running', 30_000);
    const input = modPage.getByLabel('Console command');
    await expect.poll(() => input.isEnabled(), { timeout: 20_000 }).toBe(true);
    await modPage.evaluate('window.__sameDocument = true');

    await openUsersTab(ownerPage);
    await ownerPage
      .locator('li', { hasText: MOD_EMAIL })
      .getByRole('button', { name: `Edit the access of ${MOD_EMAIL}` })
      .click();
    const dialog = ownerPage.getByRole('dialog');
    await dialog
      .getByTestId('permission-group-control')
      .getByRole('checkbox', { name: 'console', exact: true })
      .uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => ownerPage.getByRole('dialog').count()).toBe(0);

    await expect.poll(() => input.isDisabled(), { timeout: 30_000 }).toBe(true);
    await expect(input.getAttribute('placeholder')).resolves.toBe(
      'You do not have permission to send commands.',
    );
    // The same document: no reload happened.
    await expect(modPage.evaluate('window.__sameDocument')).resolves.toBe(true);
    await screenshots(modPage, 'server-console-console-revoked');
  });

  it("the activity tab shows both people's actions", async () => {
    await modPage.getByRole('link', { name: 'Activity', exact: true }).click();
    await expect.poll(() => modPage.title()).toBe('Team World | Activity');
    const lines = modPage.getByTestId('activity-line');
    await lines.first().waitFor();
    const texts = await lines.allTextContents();
    expect(texts).toContain(`owner changed what ${MOD_EMAIL} may do`);
    expect(texts).toContain(`owner gave ${MOD_EMAIL} access to the server`);
    expect(
      texts.some((t) => /^mod\w* created the folder plugins in \/$/.test(t)),
      texts.join('\n'),
    ).toBe(true);
    // Filter by event, then the properties on demand.
    await modPage.getByLabel('Filter by event').fill('server:file');
    await modPage.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => lines.count()).toBe(1);
    await modPage.getByRole('button', { name: 'Show details' }).click();
    await modPage.getByTestId('activity-properties').waitFor();

    await ownerPage.goto(`${panel.url}/server/${server.identifier}/activity`);
    await ownerPage.getByTestId('activity-line').first().waitFor();
    await screenshots(ownerPage, 'server-activity');
  });

  it('an SSH key added on the account shows its fingerprint and signs in over SFTP', async () => {
    const keys = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'mod@laptop' });
    const blob = Buffer.from(keys.public.split(' ')[1]!, 'base64');
    const fingerprint = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');

    await modPage.goto(`${panel.url}/account/ssh`);
    await modPage.getByLabel('Name').fill('Laptop');
    await modPage.getByLabel('Public Key').fill('not a key');
    await modPage.getByRole('button', { name: 'Add Key' }).click();
    await modPage.getByText(/This does not look like a public key/).waitFor();
    await modPage.getByLabel('Public Key').fill(keys.public);
    await modPage.getByRole('button', { name: 'Add Key' }).click();
    await modPage
      .getByText(`The key "Laptop" was added. Its fingerprint is SHA256:${fingerprint}.`)
      .waitFor();
    await modPage.getByTestId('ssh-key-list').getByText(`SHA256:${fingerprint}`).waitFor();
    await screenshots(modPage, 'account-ssh-keys');

    const me = await modPage.request.get(`${panel.url}/api/client/account`, {
      headers: { Accept: 'application/json' },
    });
    const username = ((await me.json()) as { attributes: { username: string } }).attributes.username;
    const names = await new Promise<string[]>((resolve, reject) => {
      const client = new ssh2.Client();
      client.once('error', reject);
      client.once('ready', () =>
        client.sftp((error, sftp) => {
          if (error) return reject(error);
          sftp.readdir('/', (listError, list) => {
            client.end();
            if (listError) reject(listError);
            else resolve(list.map((entry) => entry.filename));
          });
        }),
      );
      client.connect({
        host: '127.0.0.1',
        port: Number(panel.env.LOCAL_SFTP_PORT),
        username: `${username}.${server.identifier}`,
        privateKey: keys.private,
        readyTimeout: 15_000,
      });
    });
    // Limited to /plugins: the root shows the way there only.
    expect(names).toContain('plugins');

    await modPage.getByRole('link', { name: 'Activity', exact: true }).click();
    await modPage.waitForURL(`${panel.url}/account/activity`);
    await modPage.getByText(`${username} added the SSH key ${fingerprint}`).waitFor();
    await screenshots(modPage, 'account-activity');
  });
});
