import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, newPage, type Panel } from './harness.ts';
import { signIn, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The Backups tab in Chromium against the real panel and its local daemon: a backup is made and
// watched, downloaded and opened with tar, a deleted file comes back by a restore, and a locked
// backup cannot be deleted.
const owner = { email: 'backups-owner@example.test', username: 'backupsowner', password: 'owner-password-1' };
const viewer = {
  email: 'backups-viewer@example.test',
  username: 'backupsviewer',
  password: 'viewer-password-1',
};
const outsider = {
  email: 'backups-files@example.test',
  username: 'backupsfiles',
  password: 'files-password-1',
};

/** Big enough (incompressible) that the backup runs for a while and its progress can be seen. */
const BIG_MIB = 256;
const WORLD_TEXT = 'spawn at 0 64 0\nchest at 12 70 -4\n';

let world: World;
let panel: Panel;
let page: Page;
let server: CreatedServer;
/** This run's screenshots and downloads. */
let outDir: string;

const onDisk = (...parts: string[]) => path.join(panel.dataDir, 'daemon', 'volumes', server.uuid, ...parts);
const backupRows = () => page.locator('li[data-testid^="backup-"]');
const backupsUrl = () => `${panel.url}/server/${server.identifier}/backups`;

/** The server's backup limit, set as an admin would (the fixture creates servers with none). */
function setBackupLimit(limit: number): void {
  const db = new Database(path.join(panel.dataDir, 'panel.sqlite'));
  try {
    db.prepare('UPDATE servers SET backup_limit = ? WHERE id = ?').run(limit, server.id);
  } finally {
    db.close();
  }
}

function writeRandomFile(file: string, mib: number): void {
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < mib; i++) writeSync(fd, randomBytes(1024 * 1024));
  } finally {
    closeSync(fd);
  }
}

/** `{name}-desktop.png` and `{name}-phone.png` of the whole page in this run's directory. */
async function shoot(name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(outDir, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(MOBILE);
  await page.screenshot({ path: path.join(outDir, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

async function menuItem(backupName: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${backupName}`, exact: true }).click();
  return page
    .getByRole('menu', { name: `Actions for ${backupName}` })
    .getByRole('menuitem', { name: item, exact: true });
}

describe('backups in Chromium', () => {
  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'talon-backups-e2e-'));
    world = await startWorld({ people: [owner, viewer, outsider] });
    ({ panel, page } = world);
    server = await world.server({ name: 'Backup World', owner });
    setBackupLimit(3);
    await world.share(server, viewer, ['backup.read', 'backup.download']);
    await world.share(server, outsider, ['file.read']);
    writeFileSync(onDisk('world.txt'), WORLD_TEXT);
    writeRandomFile(onDisk('big.bin'), BIG_MIB);
  });

  afterAll(async () => {
    await world?.close();
    console.log(`backups e2e screenshots: ${outDir}`);
  });

  it('creates a backup and shows its progress, then its size and checksum', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${server.identifier}`);
    await page.getByTestId('server-tabs').getByRole('link', { name: 'Backups', exact: true }).click();
    await page.waitForURL(backupsUrl());
    await expect.poll(() => page.title()).toBe('Backup World | Backups');
    await page.getByText('0 of 3 backups have been created for this server.').waitFor();
    await page.getByText('There are no backups of this server yet.').waitFor();

    await page.getByRole('button', { name: 'Create backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create backup' });
    await dialog.getByLabel('Name').fill('Before the update');
    await dialog.getByLabel('Ignored Files & Directories').fill('logs/\n*.tmp');
    await dialog.getByRole('switch', { name: 'Locked' }).waitFor();
    await shoot('backups-create-modal');
    await dialog.getByRole('button', { name: 'Start backup' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const row = backupRows().filter({ hasText: 'Before the update' });
    await row.waitFor();
    // While it runs: the bar with the bytes archived so far, and a menu that cannot be opened.
    await row.getByText(/archived/).waitFor({ timeout: 60_000 });
    await expect(
      row.getByRole('progressbar', { name: 'Progress of Before the update' }).count(),
    ).resolves.toBe(1);
    await expect(
      row.getByRole('button', { name: /Actions for Before the update/ }).isDisabled(),
    ).resolves.toBe(true);
    await shoot('backups-running');

    // `backup completed` finishes the row without a reload.
    await row.getByTestId('backup-checksum').waitFor({ timeout: 120_000 });
    await expect(row.getAttribute('data-state')).resolves.toBe('completed');
    await expect(row.getByTestId('backup-checksum').textContent()).resolves.toMatch(/^sha1:[0-9a-f]{40}$/);
    await expect(row.getByTestId('backup-size').textContent()).resolves.toMatch(/ MB$/);
    await expect(row.getByRole('progressbar').count()).resolves.toBe(0);
    await page.getByText('1 of 3 backups have been created for this server.').waitFor();
    await shoot('backups-list');
  });

  it('downloads the backup: a gzip tar holding the server files', async () => {
    const download = page.waitForEvent('download');
    await (await menuItem('Before the update', 'Download')).click();
    const file = path.join(outDir, 'backup.tar.gz');
    await (await download).saveAs(file);
    const head = readFileSync(file).subarray(0, 2);
    expect([...head]).toEqual([0x1f, 0x8b]);
    const listing = spawnSync('tar', ['-tzf', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(listing.status, listing.stderr).toBe(0);
    const names = listing.stdout.split('\n').map((n) => n.replace(/^\.\//, ''));
    expect(names).toContain('world.txt');
    expect(names).toContain('big.bin');
    expect(names).toContain('server.js');
    rmSync(file);
  });

  it('restores a deleted file, with the Restoring from Backup notice meanwhile', async () => {
    // The file is deleted on the Files page, whose list the restore must then refresh.
    await page.getByTestId('server-tabs').getByRole('link', { name: 'Files', exact: true }).click();
    const fileRow = page.locator('[data-testid="file-row"][data-name="world.txt"]');
    await fileRow.waitFor();
    await page.getByRole('button', { name: 'Actions for world.txt', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete world.txt?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => fileRow.count()).toBe(0);
    // The list drops the row at once; the daemon deletes the file just after.
    await expect.poll(() => existsSync(onDisk('world.txt'))).toBe(false);

    await page.getByTestId('server-tabs').getByRole('link', { name: 'Backups', exact: true }).click();
    await (await menuItem('Before the update', 'Restore')).click();
    const confirm = page.getByRole('dialog', { name: 'Restore "Before the update"?' });
    await confirm.getByRole('checkbox', { name: 'Delete all files first' }).waitFor();
    await shoot('backups-restore-dialog');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    // The notice replaces the pages until `backup restore completed` clears it.
    const notice = page.getByText(
      'Your server is currently being restored from a backup, please check back in a few minutes.',
    );
    await notice.waitFor();
    await shoot('backups-restoring');
    await notice.waitFor({ state: 'detached', timeout: 120_000 });
    expect(readFileSync(onDisk('world.txt'), 'utf8')).toBe(WORLD_TEXT);

    // Back on Files without a page load: the list read before the restore was refreshed.
    await page.getByTestId('server-tabs').getByRole('link', { name: 'Files', exact: true }).click();
    await fileRow.waitFor();
  });

  it('a locked backup cannot be deleted until it is unlocked', async () => {
    await page.getByTestId('server-tabs').getByRole('link', { name: 'Backups', exact: true }).click();
    const row = backupRows().filter({ hasText: 'Before the update' });
    await (await menuItem('Before the update', 'Lock')).click();
    await row.getByTestId('backup-locked').waitFor();

    // The menu says why Delete is not available, and the panel refuses it too.
    const refusedItem = await menuItem('Before the update', 'Delete (unlock it first)');
    await expect(refusedItem.getAttribute('aria-disabled')).resolves.toBe('true');
    await shoot('backups-locked-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    const uuid = (await row.getAttribute('data-testid'))!.replace('backup-', '');
    const refused = await page.evaluate(async (url) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const res = await fetch(url, {
        method: 'DELETE',
        headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': xsrf },
      });
      return {
        status: res.status,
        body: (await res.json()) as { errors: { code: string; detail: string }[] },
      };
    }, `/api/client/servers/${server.identifier}/backups/${uuid}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'BackupLockedException',
      detail: 'Cannot delete a backup that is marked as locked.',
    });
    await row.waitFor();

    // Unlocking asks first; then Delete works.
    await (await menuItem('Before the update', 'Unlock')).click();
    await page
      .getByRole('dialog', { name: 'Unlock "Before the update"?' })
      .getByRole('button', { name: 'Unlock' })
      .click();
    await expect.poll(() => row.getByTestId('backup-locked').count()).toBe(0);
    await (await menuItem('Before the update', 'Delete')).click();
    await page
      .getByRole('dialog', { name: 'Delete "Before the update"?' })
      .getByRole('button', { name: 'Delete backup' })
      .click();
    await expect.poll(() => backupRows().count()).toBe(0);
    await page.getByText('0 of 3 backups have been created for this server.').waitFor();
  });

  it('the menu is reachable and leavable with the keyboard', async () => {
    // A small server now: this backup only needs to finish.
    rmSync(onDisk('big.bin'));
    await page.getByRole('button', { name: 'Create backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create backup' });
    await dialog.getByLabel('Name').fill('Keyboard');
    await dialog.getByRole('button', { name: 'Start backup' }).click();
    const row = backupRows().filter({ hasText: 'Keyboard' });
    await row.getByTestId('backup-checksum').waitFor({ timeout: 120_000 });

    const button = page.getByRole('button', { name: 'Actions for Keyboard', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Actions for Keyboard' });
    await expect
      .poll(() =>
        menu.getByRole('menuitem', { name: 'Download' }).evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() =>
        menu.getByRole('menuitem', { name: 'Restore' }).evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
    // Tab leaves an open menu for the next control.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => menu.count()).toBe(0);
  });

  it('subusers see only what their backup permissions allow', async () => {
    const viewerPage = await newPage(world.browser);
    await signIn(viewerPage, panel.url, viewer.username, viewer.password);
    await viewerPage.goto(backupsUrl());
    const row = viewerPage.locator('li[data-testid^="backup-"]').filter({ hasText: 'Keyboard' });
    await row.waitFor();
    await expect(viewerPage.getByRole('button', { name: 'Create backup' }).count()).resolves.toBe(0);
    await viewerPage.getByRole('button', { name: 'Actions for Keyboard', exact: true }).click();
    await expect
      .poll(() =>
        viewerPage
          .getByRole('menu', { name: 'Actions for Keyboard' })
          .getByRole('menuitem')
          .allTextContents(),
      )
      .toEqual(['Download']);
    await viewerPage.context().close();

    const outsiderPage = await newPage(world.browser);
    await signIn(outsiderPage, panel.url, outsider.username, outsider.password);
    await outsiderPage.goto(backupsUrl());
    await outsiderPage.getByText('You do not have permission to access this page.').waitFor();
    await expect(
      outsiderPage.getByTestId('server-tabs').getByRole('link', { name: 'Backups', exact: true }).count(),
    ).resolves.toBe(0);
    await outsiderPage.context().close();
  });
});
