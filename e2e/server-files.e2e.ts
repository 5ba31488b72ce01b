import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshots, type Panel } from './harness.ts';
import { signIn, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The file manager in Chromium against the real panel and its local daemon: every change made on
// the page is checked in the server's directory on disk.
const owner = { email: 'files-owner@example.test', username: 'filesowner', password: 'owner-password-1' };
const reader = { email: 'files-reader@example.test', username: 'filesreader', password: 'reader-password-1' };

let world: World;
let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;

const onDisk = (...parts: string[]) => path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, ...parts);
const row = (name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);
const rowNames = () =>
  page.getByTestId('file-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

async function menuAction(name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('file manager in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, reader] });
    ({ panel, browser, page } = world);
    server = await world.server({ name: 'File World', owner });
    await world.share(server, reader, ['file.read']);
  });

  afterAll(() => world?.close());

  it('opens Files from the tabs and lists the installed files', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${server.identifier}`);
    await page.getByRole('link', { name: 'Files', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${server.identifier}/files`);
    await row('server.js').waitFor();
    await expect.poll(() => page.title()).toBe('File World | Files');
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Current folder' }).textContent())
      .toBe('/home/container');
    const size = statSync(onDisk('server.js')).size;
    const shown = await row('server.js').locator('span.sm\\:block').first().textContent();
    expect(shown).toMatch(/^\d+\.\d{2} kB$/);
    expect(Number(shown!.split(' ')[0])).toBeCloseTo(size / 1024, 1);
    await screenshots(page, 'server-files');
  });

  it('creates a directory and uploads a file into it', async () => {
    await page.getByRole('button', { name: 'Create Directory' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Directory' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('A valid directory name must be provided.').waitFor();
    await dialog.getByLabel('Directory Name').fill('uploads');
    await screenshots(page, 'server-files-create-directory');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await row('uploads').waitFor();
    expect(statSync(onDisk('uploads')).isDirectory()).toBe(true);
    // Folders first.
    expect((await rowNames())[0]).toBe('uploads');

    await page.getByRole('link', { name: 'uploads', exact: true }).click();
    await page.waitForURL(/\/files#\/uploads$/);
    await page.getByText('This directory seems to be empty.').waitFor();
    await page.getByTestId('upload-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('gold at 120 64 -30\n'),
    });
    await row('notes.txt').waitFor();
    expect(readFileSync(onDisk('uploads', 'notes.txt'), 'utf8')).toBe('gold at 120 64 -30\n');

    // Dropped onto the page: the overlay names the folder, the file lands in it.
    const files = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped\n'], 'dropped.txt', { type: 'text/plain' }));
      return data;
    });
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: files });
    await page.getByTestId('drop-overlay').getByText('/home/container/uploads').waitFor();
    await screenshots(page, 'server-files-drop');
    await page.dispatchEvent('body', 'drop', { dataTransfer: files });
    await row('dropped.txt').waitFor();
    await expect.poll(() => page.getByTestId('drop-overlay').count()).toBe(0);
    await expect.poll(() => existsSync(onDisk('uploads', 'dropped.txt'))).toBe(true);
    expect(readFileSync(onDisk('uploads', 'dropped.txt'), 'utf8')).toBe('dropped\n');
    await menuAction('dropped.txt', 'Delete');
    await page
      .getByRole('dialog', { name: 'Delete dropped.txt?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => existsSync(onDisk('uploads', 'dropped.txt'))).toBe(false);
    await expect.poll(() => row('notes.txt').locator('time').textContent()).toBe('less than a minute ago');
  });

  it('renames, changes permissions, archives and unarchives', async () => {
    await menuAction('notes.txt', 'Rename');
    const rename = page.getByRole('dialog', { name: 'Rename notes.txt' });
    await rename.getByLabel('New Name').fill('readme.txt');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await row('readme.txt').waitFor();
    // The row changes before the daemon answers: wait for the disk.
    await expect.poll(() => existsSync(onDisk('uploads', 'readme.txt'))).toBe(true);
    expect(existsSync(onDisk('uploads', 'notes.txt'))).toBe(false);
    expect(readFileSync(onDisk('uploads', 'readme.txt'), 'utf8')).toBe('gold at 120 64 -30\n');

    await menuAction('readme.txt', 'Permissions');
    const chmod = page.getByRole('dialog', { name: 'Permissions of readme.txt' });
    await chmod.getByLabel('Mode (octal)').fill('9');
    await chmod.getByRole('button', { name: 'Update' }).click();
    await chmod.getByText('Permissions are three or four digits from 0 to 7, such as 644 or 0755.').waitFor();
    await chmod.getByLabel('Mode (octal)').fill('600');
    await expect.poll(() => chmod.getByTestId('chmod-new').textContent()).toBe('rw-------');
    await screenshots(page, 'server-files-permissions');
    await chmod.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => statSync(onDisk('uploads', 'readme.txt')).mode & 0o777).toBe(0o600);

    await page.getByRole('button', { name: 'Actions for readme.txt' }).click();
    await page.getByRole('menu').waitFor();
    await screenshots(page, 'server-files-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    await menuAction('readme.txt', 'Archive');
    const archive = page.locator('[data-testid="file-row"][data-name^="archive-"]');
    await archive.waitFor();
    const archiveName = (await archive.getAttribute('data-name'))!;
    expect(archiveName).toMatch(/^archive-.*\.tar\.gz$/);
    expect(statSync(onDisk('uploads', archiveName)).size).toBeGreaterThan(0);

    await menuAction('readme.txt', 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete readme.txt?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row('readme.txt').count()).toBe(0);
    await expect.poll(() => existsSync(onDisk('uploads', 'readme.txt'))).toBe(false);

    await menuAction(archiveName, 'Unarchive');
    await row('readme.txt').waitFor();
    expect(readFileSync(onDisk('uploads', 'readme.txt'), 'utf8')).toBe('gold at 120 64 -30\n');
  });

  it('deletes everything selected after listing it in the confirmation', async () => {
    await page.getByRole('checkbox', { name: 'Select every file in this folder' }).check();
    const bar = page.getByRole('region', { name: 'Selected files' });
    await expect.poll(() => bar.getByTestId('bulk-count').textContent()).toBe('2 files selected');
    await bar.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 files?' });
    await confirm.getByTestId('delete-list').getByText('readme.txt').waitFor();
    await screenshots(page, 'server-files-bulk-delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('This directory seems to be empty.').waitFor();
    await expect.poll(() => readdirSync(onDisk('uploads'))).toEqual([]);

    // The breadcrumb leads back up.
    await page
      .getByRole('navigation', { name: 'Current folder' })
      .getByRole('link', { name: 'home/container' })
      .click();
    await row('server.js').waitFor();
  });

  it('uploads more files than the daemon takes in one request, in batches that all arrive', async () => {
    // The daemon takes at most 100 files per request (api.upload_max_files, default): 130 files
    // chosen at once must go in several requests, each with its own single-use signed URL.
    await page.getByRole('button', { name: 'Create Directory' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Directory' });
    await dialog.getByLabel('Directory Name').fill('batch');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('link', { name: 'batch', exact: true }).click();
    await page.waitForURL(/\/files#\/batch$/);
    await page.getByText('This directory seems to be empty.').waitFor();

    const sent: URL[] = [];
    const onRequest = (request: { method: () => string; url: () => string }) => {
      const url = new URL(request.url());
      if (request.method() === 'POST' && url.pathname === '/upload/file') sent.push(url);
    };
    page.on('request', onRequest);
    const files = Array.from({ length: 130 }, (_, i) => ({
      name: `part-${String(i).padStart(3, '0')}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`part ${i} of the map\n`),
    }));
    await page.getByTestId('upload-input').setInputFiles(files);
    // The list is read once, after the last batch.
    await row('part-129.txt').waitFor();
    await expect.poll(async () => (await rowNames()).length).toBe(130);
    page.off('request', onRequest);

    expect(readdirSync(onDisk('batch')).sort()).toEqual(files.map((f) => f.name));
    for (const file of files) {
      expect(readFileSync(onDisk('batch', file.name), 'utf8')).toBe(file.buffer.toString());
    }
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((url) => url.searchParams.get('token'))).size).toBe(3);
    expect(sent.every((url) => url.searchParams.get('directory') === '/batch')).toBe(true);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });

  it('keeps a climbing hash inside the server', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files#/../../etc`);
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Current folder' }).textContent())
      .toBe('/home/container/etc');
    await page.getByText('This folder could not be opened').waitFor({ timeout: 30_000 });
    await expect(page.getByText('passwd').count()).resolves.toBe(0);
    await screenshots(page, 'server-files-outside');
    await page.goto(`${panel.url}/server/${server.identifier}/files#/uploads/../../../`);
    await row('server.js').waitFor();
  });

  it('shows a subuser with only file.read the files and none of the actions', async () => {
    const other = await newPage(browser);
    try {
      await signIn(other, panel.url, reader.username, reader.password);
      await other.goto(`${panel.url}/server/${server.identifier}/files`);
      await other.locator('[data-testid="file-row"][data-name="server.js"]').waitFor();
      await expect(other.getByRole('button', { name: /^Actions for/ }).count()).resolves.toBe(0);
      await expect(other.getByRole('button', { name: 'Create Directory' }).count()).resolves.toBe(0);
      await expect(other.getByRole('button', { name: 'Upload' }).count()).resolves.toBe(0);
      await expect(other.getByRole('checkbox').count()).resolves.toBe(0);
      await expect(other.getByText('Delete').count()).resolves.toBe(0);
      await screenshots(other, 'server-files-reader');
    } finally {
      await other.context().close();
    }
  });
});
