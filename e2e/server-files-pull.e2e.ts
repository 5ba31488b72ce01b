import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, screenshots, startPanel, type Panel } from './harness.ts';
import {
  applicationApi,
  createServer,
  eggId,
  signIn,
  userId,
  waitInstalled,
  type CreatedServer,
} from './servers.ts';

// "Download from URL" in Chromium: the local daemon fetches from a web server on 127.0.0.2, the one
// internal address the panel allows it (LOCAL_REMOTE_DOWNLOAD_NETWORKS); loopback stays refused.
const owner = { email: 'pull-owner@example.test', username: 'pullowner', password: 'owner-password-1' };
const HALF = 'x'.repeat(64 * 1024);

let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;
let origin: http.Server;
let originBase: string;
let release: (() => void) | null = null;

const onDisk = (...parts: string[]) => path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, ...parts);
const row = (name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);

describe('Download from URL in Chromium', () => {
  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      if (req.url !== '/modpack.zip') return res.writeHead(404).end();
      // Half now, the rest when the test has seen the progress.
      res.writeHead(200, { 'Content-Length': HALF.length * 2 });
      res.write(HALF);
      release = () => res.end(HALF);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.2', r));
    originBase = `http://127.0.0.2:${(origin.address() as AddressInfo).port}`;
    ensureWebBuilt();
    panel = await startPanel({ env: { LOCAL_REMOTE_DOWNLOAD_NETWORKS: '127.0.0.2/32' } });
    panel.createUser(owner);
    const api = applicationApi(panel, panel.admin.username);
    server = await createServer(api, {
      name: 'Pull World',
      user: await userId(api, owner.username),
      egg: await eggId(api, 'Node.js Game Server'),
    });
    await waitInstalled(api, server.id);
    browser = await launchBrowser();
    page = await newPage(browser);
  });

  afterAll(async () => {
    release?.();
    await browser?.close();
    await panel?.stop();
    origin?.close();
  });

  it('downloads a file into the folder with the keyboard, showing its progress', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${server.identifier}/files`);
    await row('server.js').waitFor();
    await page.getByRole('button', { name: 'Download from URL' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Download from URL' });
    await expect
      .poll(() => dialog.getByLabel('URL').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.keyboard.type(`${originBase}/modpack.zip`);
    await page.keyboard.press('Enter');
    await dialog.getByText('64.00 kB of 128.00 kB (50%)').waitFor();
    await screenshots(page, 'server-files-pull-progress');
    release!();
    await row('modpack.zip').waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(readFileSync(onDisk('modpack.zip'), 'utf8')).toBe(HALF + HALF);
  });

  it('says in words why a loopback address is refused, and writes nothing', async () => {
    await page.getByRole('button', { name: 'Download from URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download from URL' });
    await dialog.getByLabel('URL').fill(`http://127.0.0.1:${new URL(panel.url).port}/secret.txt`);
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await dialog
      .getByText(/The address 127\.0\.0\.1 is a loopback address and cannot be downloaded from/)
      .waitFor();
    await screenshots(page, 'server-files-pull-refused');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await row('secret.txt').count()).toBe(0);
  });
});
