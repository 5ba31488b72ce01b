import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  ensureWebBuilt,
  launchBrowser,
  newPage,
  screenshots,
  startPanel,
  type Panel,
} from './harness.ts';
import { applicationApi, createServer, eggId, signIn, userId, type CreatedServer } from './servers.ts';

// Things a newcomer tripped over (issue 11): a checkpoint button that moved under the pointer, and
// server tabs that scrolled out of sight at phone width. One panel for the whole file.
const admin = {
  email: 'newcomer-admin@example.test',
  username: 'newcomeradmin',
  password: 'admin-password-1',
};
const guarded = { email: 'guarded@example.test', username: 'guarded', password: 'guarded-password-1' };

let panel: Panel;
let browser: Browser;
let game: CreatedServer;

/** Turns two-factor on in the database: only the checkpoint screen is under test, not the code check. */
function requireTotp(username: string): void {
  const db = new Database(path.join(panel.dataDir, 'panel.sqlite'));
  try {
    db.prepare('UPDATE users SET use_totp = 1, totp_secret = ? WHERE username = ?').run(
      'not-used-by-this-test',
      username,
    );
  } finally {
    db.close();
  }
}

/** A real click: press and release at the button's centre, as a pointer would. */
async function mouseClick(page: Page, name: string): Promise<void> {
  const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

describe('newcomer snags in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel();
    panel.createUser({ ...admin, admin: true });
    panel.createUser(guarded);
    requireTotp(guarded.username);
    const api = applicationApi(panel, panel.admin.username);
    game = await createServer(api, {
      name: 'Newcomer World',
      user: await userId(api, admin.username),
      egg: await eggId(api, 'Node.js Game Server'),
      skipScripts: true,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('the checkpoint switches back to the code field with one click after "Lost Device"', async () => {
    const page = await newPage(browser);
    await page.goto(`${panel.url}/auth/login`);
    await page.getByLabel('Username or Email').fill(guarded.username);
    await page.getByLabel('Password').fill(guarded.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);

    await mouseClick(page, 'Lost Device');
    // The recovery field has the focus; the next press blurs it, which must not move the button.
    await page.getByLabel('Recovery Code').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('');
    await mouseClick(page, 'I Have My Device');
    // A lost click never shows it, however long we wait: no short timeout needed.
    await page.getByLabel('Authentication Code').waitFor();
    expect(await page.getByLabel('Recovery Code').count()).toBe(0);
    await page.close();
  });

  it('every server tab is on screen at phone width, in keyboard order', async () => {
    const page = await newPage(browser);
    await signIn(page, panel.url, admin.username, admin.password);
    await page.goto(`${panel.url}/server/${game.identifier}`);
    await page.getByRole('link', { name: 'Console', exact: true }).waitFor();
    const names = [
      'Console',
      'Files',
      'Databases',
      'Schedules',
      'Users',
      'Backups',
      'Network',
      'Startup Settings',
      'Settings',
      'Activity',
    ];
    for (const size of [MOBILE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const name of names) {
        const box = (await page.getByRole('link', { name, exact: true }).boundingBox())!;
        expect(box.x, `${name} at ${size.width}px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name} at ${size.width}px`).toBeLessThanOrEqual(size.width);
        expect(box.y + box.height, `${name} at ${size.width}px`).toBeLessThanOrEqual(size.height);
      }
      const admin = (await page.getByTestId('admin-link').boundingBox())!;
      expect(admin.x + admin.width).toBeLessThanOrEqual(size.width);
    }
    // Tab order follows the reading order.
    const labels = (await page.locator('[data-testid="server-tabs"] a').allInnerTexts()).map((s) => s.trim());
    expect(labels.slice(0, names.length)).toEqual(names);
    await screenshots(page, 'server-tabs');
    await page.close();
  });
});
