import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshots, type Panel } from './harness.ts';
import { signIn, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The file editor in Chromium against the real panel and its local daemon: what is typed and
// saved on the page is checked in the server's directory on disk.
const owner = { email: 'editor-owner@example.test', username: 'editorowner', password: 'owner-password-1' };
const reader = {
  email: 'editor-reader@example.test',
  username: 'editorreader',
  password: 'reader-password-1',
};

let world: World;
let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;

const onDisk = (...parts: string[]) => path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, ...parts);
const row = (p: Page, name: string) => p.locator(`[data-testid="file-row"][data-name="${name}"]`);
const editorText = (p: Page) =>
  p
    .locator('.cm-content')
    .evaluate((el) => Array.from(el.querySelectorAll('.cm-line'), (l) => l.textContent).join('\n'));

describe('file editor in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, reader] });
    ({ panel, browser, page } = world);
    server = await world.server({ name: 'Editor World', owner });
    await world.share(server, reader, ['file.read', 'file.read-content']);
  });

  afterAll(() => world?.close());

  it('opens server.js from the list, saves a typed change with Ctrl+S and writes it to disk', async () => {
    const before = readFileSync(onDisk('server.js'), 'utf8');
    const motd = "const motd = process.env.MOTD || 'A Talon game server';";
    expect(before).toContain(motd);

    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${server.identifier}/files`);
    await row(page, 'server.js').getByRole('link', { name: 'server.js' }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files/edit#/server.js`);
    await page.locator('.cm-line', { hasText: motd }).waitFor();
    await expect.poll(() => page.title()).toBe('Editor World | server.js');
    expect(await page.getByLabel('Language').inputValue()).toBe('javascript');
    // The Files tab stays highlighted on its sub-page.
    expect(await page.getByRole('link', { name: 'Files', exact: true }).getAttribute('class')).toContain(
      'border-sky-500',
    );
    await page.getByRole('button', { name: 'Save Content' }).waitFor();

    await page.locator('.cm-line', { hasText: motd }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' // edited in the browser');
    await page.getByText('Unsaved changes').waitFor();
    await screenshots(page, 'server-file-editor');

    // Leaving now asks first; staying keeps the text.
    await page.getByRole('link', { name: 'Files', exact: true }).click();
    const leave = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await leave.waitFor();
    await screenshots(page, 'server-file-editor-leave');
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => leave.count()).toBe(0);
    expect(page.url()).toBe(`${panel.url}/server/${server.identifier}/files/edit#/server.js`);

    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => readFileSync(onDisk('server.js'), 'utf8'))
      .toBe(before.replace(motd, `${motd} // edited in the browser`));
    await expect.poll(() => page.getByText('Unsaved changes').count()).toBe(0);

    // Saved: leaving needs no confirmation any more.
    await page.getByRole('link', { name: 'Files', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files`);
    await row(page, 'server.js').waitFor();
  });

  it('creates config.yml in a folder from New File, asking its name, then edits it', async () => {
    await page.getByRole('button', { name: 'Create Directory' }).click();
    const folder = page.getByRole('dialog', { name: 'Create Directory' });
    await folder.getByLabel('Directory Name').fill('settings');
    await folder.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('link', { name: 'settings', exact: true }).click();
    await page.waitForURL(/\/files#\/settings$/);

    await page.getByRole('link', { name: 'New File' }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files/new#/settings`);
    await page.locator('.cm-content').click();
    await page.keyboard.type('motd: Hello from the editor\nmax_players: 12\n');
    await page.getByLabel('Language').selectOption({ label: 'YAML' });
    await page.getByRole('button', { name: 'Create File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create File' });
    await dialog.getByRole('button', { name: 'Create File' }).click();
    await dialog.getByText('A file name must be provided.').waitFor();
    await dialog.getByLabel('File Name').fill('config.yml');
    await dialog.getByText('/home/container/settings/config.yml').waitFor();
    await screenshots(page, 'server-file-editor-new');
    await dialog.getByRole('button', { name: 'Create File' }).click();

    await page.waitForURL(`${panel.url}/server/${server.identifier}/files/edit#/settings/config.yml`);
    await expect
      .poll(() => readFileSync(onDisk('settings', 'config.yml'), 'utf8'))
      .toBe('motd: Hello from the editor\nmax_players: 12\n');
    await page.locator('.cm-line', { hasText: 'max_players: 12' }).waitFor();
    expect(await page.getByLabel('Language').inputValue()).toBe('yaml');
    expect(await editorText(page)).toBe('motd: Hello from the editor\nmax_players: 12\n');
    await page.getByRole('button', { name: 'Save Content' }).waitFor();

    await page
      .getByRole('navigation', { name: 'Current folder' })
      .getByRole('link', { name: 'settings' })
      .click();
    await page.waitForURL(/\/files#\/settings$/);
    await row(page, 'config.yml').waitFor();
  });

  it('notes what a .pteroignore file does', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files/new#/`);
    await page.locator('.cm-content').click();
    await page.keyboard.type('*.log\n!latest.log\n');
    await page.getByRole('button', { name: 'Create File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create File' });
    await dialog.getByLabel('File Name').fill('.pteroignore');
    await dialog.getByRole('button', { name: 'Create File' }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files/edit#/.pteroignore`);
    await page.getByText(/left out of backups/).waitFor();
    expect(readFileSync(onDisk('.pteroignore'), 'utf8')).toBe('*.log\n!latest.log\n');
    await screenshots(page, 'server-file-editor-ignore');
  });

  it('shows a subuser without file.update the file but no way to save it', async () => {
    const other = await newPage(browser);
    try {
      await signIn(other, panel.url, reader.username, reader.password);
      await other.goto(`${panel.url}/server/${server.identifier}/files`);
      await row(other, 'server.js').getByRole('link', { name: 'server.js' }).click();
      await other.locator('.cm-line', { hasText: 'edited in the browser' }).waitFor();
      await other.getByText('You can read this file but not save changes to it.').waitFor();
      await expect(other.getByRole('button', { name: 'Save Content' }).count()).resolves.toBe(0);
      await expect(other.getByRole('link', { name: 'New File' }).count()).resolves.toBe(0);
      const text = await editorText(other);
      await other.locator('.cm-content').click();
      await other.keyboard.type('nope');
      await other.keyboard.press('Control+s');
      expect(await editorText(other)).toBe(text);
      await expect(other.getByText('Unsaved changes').count()).resolves.toBe(0);
      await screenshots(other, 'server-file-editor-reader');
    } finally {
      await other.context().close();
    }
  });

  it('shows an error view with a way back for a file that cannot be read', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files/edit#/settings/missing.yml`);
    await page.getByText('This file could not be opened').waitFor();
    await screenshots(page, 'server-file-editor-missing');
    await page.getByRole('button', { name: 'Back to the files' }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files#/settings`);
    await row(page, 'config.yml').waitFor();
  });
});
