import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { newPage, screenshots, type Panel } from './harness.ts';
import { signIn, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// Issue 24, item 8 in Chromium against the real panel and its local daemon. Avatars: with remote
// avatars off (the default) the pages show initials and ask no avatar service for anything; an
// admin turns them on in Settings. Move: one file takes a full new path (moved and renamed) or a
// folder; a path that leaves the server's folder is refused, in words.
const owner = { email: 'avatar-owner@example.test', username: 'avatarowner', password: 'owner-password-1' };
const friend = { email: 'Maple.Leaf@example.test', username: 'mapleleaf', password: 'friend-password-1' };

let world: World;
let panel: Panel;
let page: Page;
let server: CreatedServer;
let outside: string;

const onDisk = (...parts: string[]) => path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, ...parts);
const row = (name: string) => page.locator(`[data-testid="file-row"][data-name="${name}"]`);

/** A 1×1 PNG: what the stand-in avatar service answers, so no test traffic leaves the machine. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Every request `target` makes to a host other than the panel's own address, kept in `into`. */
function recordForeign(target: Page, into: string[]): void {
  const own = new URL(panel.url).host;
  target.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.host !== own && url.hostname !== '127.0.0.1')
      into.push(request.url());
  });
}

/** WCAG contrast ratio of an element's text colour on its background (both `rgb(...)`). */
function contrastOf(target: Page, selector: string): Promise<number> {
  return target
    .locator(selector)
    .first()
    .evaluate((el) => {
      const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = (css: string) => {
        const [r, g, b] = channels(css).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const style = getComputedStyle(el);
      const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
      return (a! + 0.05) / (b! + 0.05);
    });
}

async function openMove(name: string): Promise<ReturnType<Page['getByRole']>> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${name}` });
  await dialog.waitFor();
  return dialog;
}

describe('offline and private: avatars and the Move dialog in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, friend] });
    ({ panel, page } = world);
    server = await world.server({ name: 'Private World', owner });
    await world.share(server, friend, ['control.console']);
    outside = mkdtempSync(path.join(tmpdir(), 'talon-outside-'));
    await signIn(page, panel.url, owner.username, owner.password);
  });

  afterAll(async () => {
    await world?.close();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it('shows initials and asks no avatar service while remote avatars are off (the default)', async () => {
    const foreign: string[] = [];
    recordForeign(page, foreign);
    // Anything that still tried would get no answer from the internet here.
    await page.route('https://*.gravatar.com/**', (route) => route.abort());
    await page.route('https://gravatar.com/**', (route) => route.abort());

    const response = await page.goto(`${panel.url}/server/${server.identifier}/users`);
    const policy = response!.headers()['content-security-policy'] ?? '';
    expect(policy).not.toContain('gravatar');
    const friendRow = page.getByTestId(/^subuser-/).filter({ hasText: friend.email.toLowerCase() });
    const initials = friendRow.getByTestId('avatar-initials');
    await expect.poll(() => initials.textContent()).toBe('MA');
    expect(await friendRow.locator('img').count()).toBe(0);
    expect(await contrastOf(page, '[data-testid="avatar-initials"]')).toBeGreaterThanOrEqual(4.5);
    // The same person, the same colour, on another visit.
    const colour = await initials.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.reload();
    await expect.poll(() => initials.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(colour);
    await screenshots(page, 'avatars-initials-users');

    await page.goto(`${panel.url}/server/${server.identifier}/activity`);
    await page.getByTestId('activity-row').first().waitFor();
    await page.goto(`${panel.url}/account/activity`);
    await page.getByTestId('activity-row').first().waitFor();
    await expect.poll(() => page.getByTestId('avatar-initials').count()).toBeGreaterThan(0);
    expect(await page.locator('img[src*="gravatar"]').count()).toBe(0);
    expect(foreign, 'requests that left the panel').toEqual([]);
  });

  it('shows the pictures once an admin turns remote avatars on in Settings, and initials again when off', async () => {
    const admin = await newPage(world.browser);
    try {
      await signIn(admin, panel.url, panel.admin.username, panel.admin.password);
      const setRemote = async (on: boolean) => {
        await admin.goto(`${panel.url}/admin/settings`);
        const box = admin.getByLabel('Show Gravatar pictures');
        await box.waitFor();
        expect(await box.isChecked()).toBe(!on);
        await box.setChecked(on);
        await admin.getByRole('button', { name: 'Save settings' }).click();
        await admin.getByText('The settings were saved.').waitFor();
      };
      await setRemote(true);
      await screenshots(admin, 'avatars-settings');

      // The stand-in for gravatar.com: the page's policy must let its pictures in.
      const served: string[] = [];
      await page.unrouteAll();
      await page.route('https://gravatar.com/**', (route) => {
        served.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL });
      });
      const response = await page.goto(`${panel.url}/server/${server.identifier}/users`);
      expect(response!.headers()['content-security-policy']).toContain('https://gravatar.com');
      const picture = page.locator('li img[src^="https://gravatar.com/avatar/"]').first();
      await picture.waitFor();
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
      expect(served.length).toBeGreaterThan(0);

      await setRemote(false);
      await page.reload();
      await page.getByTestId('avatar-initials').first().waitFor();
      expect(await page.locator('img[src*="gravatar"]').count()).toBe(0);
    } finally {
      await admin.context().close();
    }
  });

  it('moves a file to a full new path: into plugins/ and renamed at once', async () => {
    writeFileSync(onDisk('a.txt'), 'alpha\n');
    await page.goto(`${panel.url}/server/${server.identifier}/files`);
    await row('a.txt').waitFor();
    const dialog = await openMove('a.txt');
    const field = dialog.getByLabel('New Location');
    expect(await field.inputValue()).toBe('/a.txt');
    await field.fill('plugins/b.txt');
    await expect
      .poll(() => dialog.getByTestId('move-target').textContent())
      .toBe('/home/container/plugins/b.txt');
    await screenshots(page, 'files-move-path');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => existsSync(onDisk('plugins', 'b.txt'))).toBe(true);
    expect(readFileSync(onDisk('plugins', 'b.txt'), 'utf8')).toBe('alpha\n');
    expect(existsSync(onDisk('a.txt'))).toBe(false);
    await expect.poll(() => row('a.txt').count()).toBe(0);
    await row('plugins').waitFor();
  });

  it('moves a file into a folder: named with a trailing slash, or an existing folder by its name', async () => {
    writeFileSync(onDisk('c.txt'), 'charlie\n');
    writeFileSync(onDisk('d.txt'), 'delta\n');
    mkdirSync(onDisk('maps'));
    await page.reload();
    await row('c.txt').waitFor();

    let dialog = await openMove('c.txt');
    await dialog.getByLabel('New Location').fill('/plugins/');
    await expect.poll(() => dialog.getByTestId('move-target').textContent()).toBe('/home/container/plugins/');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => existsSync(onDisk('plugins', 'c.txt'))).toBe(true);
    expect(existsSync(onDisk('c.txt'))).toBe(false);

    dialog = await openMove('d.txt');
    await dialog.getByLabel('New Location').fill('maps');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => existsSync(onDisk('maps', 'd.txt'))).toBe(true);
    expect(readFileSync(onDisk('maps', 'd.txt'), 'utf8')).toBe('delta\n');
    expect(existsSync(onDisk('d.txt'))).toBe(false);
  });

  it('refuses a path that leaves the server’s folder, in words, and moves nothing', async () => {
    writeFileSync(onDisk('e.txt'), 'echo\n');
    // A link in the server's folder to a folder outside it: the daemon must not follow it.
    symlinkSync(outside, onDisk('escape'));
    await page.reload();
    await row('e.txt').waitFor();
    const renames: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/files/rename')) renames.push(r.postData() ?? '');
    });

    // Climbing above the root with ../ is refused in the dialog (the daemon would quietly stay inside).
    const dialog = await openMove('e.txt');
    const field = dialog.getByLabel('New Location');
    await field.fill('../../etc/e.txt');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog
      .getByText("That path leads outside the server's folder: remove the extra ../ steps.")
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    // Through the link: sent, and refused by the daemon, whose answer is shown.
    await field.fill('/escape/');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const alert = page.getByRole('alert');
    await alert.first().waitFor();
    const message = (await alert.first().innerText()).trim();
    // The daemon's answer for a path that resolves outside the server (Wings' words).
    expect(message).toContain('The requested resources was not found on the system.');
    expect(message).not.toMatch(/undefined|\[object|\{"/);
    await screenshots(page, 'files-move-refused');
    expect(renames).toHaveLength(1);
    expect(JSON.parse(renames[0]!)).toEqual({ root: '/', files: [{ from: '/e.txt', to: '/escape/e.txt' }] });
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(onDisk('e.txt'), 'utf8')).toBe('echo\n');
    await row('e.txt').waitFor();
  });
});
