/**
 * The Schedules tab in Chromium against the real panel and its local daemon: the owner creates a
 * schedule with the spec's defaults, adds a command task and a power task, runs it now and sees the
 * command reach the running server's console and the server stop, edits the cron, deletes it.
 * Pictures at desktop and phone width in this run's own folder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, newPage } from './harness.ts';
import { signIn, terminalText, waitForStatus, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

const owner = {
  email: 'schedules-owner@example.test',
  username: 'schedulesowner',
  password: 'owner-password-1',
};
const viewer = {
  email: 'schedules-viewer@example.test',
  username: 'schedulesviewer',
  password: 'viewer-password-1',
};
const outsider = {
  email: 'schedules-outsider@example.test',
  username: 'schedulesoutsider',
  password: 'outsider-password-1',
};
const SHOTS = mkdtempSync(path.join(tmpdir(), 'talon-schedules-shots-'));
const COMMAND = 'say scheduled hello from the browser test';

let world: World;
let server: CreatedServer;
let page: Page;
/** /server/{id}/schedules/{scheduleId}, once created. */
let scheduleUrl = '';

/** `{name}-1280.png` and `{name}-390.png` in this run's own folder. */
async function shots(name: string): Promise<void> {
  for (const size of [DESKTOP, MOBILE]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

const dialog = () => page.getByRole('dialog');
const badge = () => page.getByTestId('schedule-badge').textContent();

describe('schedules in Chromium against the real panel and daemon', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, viewer, outsider] });
    server = await world.server({ owner, name: 'Timed World' });
    await world.share(server, viewer, ['schedule.read', 'websocket.connect']);
    await world.share(server, outsider, ['file.read', 'websocket.connect']);
    page = world.page;
    await signIn(page, world.panel.url, owner.username, owner.password);
    // The power task's effect and the command's answer need a running server.
    await page.goto(`${world.panel.url}/server/${server.identifier}`);
    await waitForStatus(page, world.panel, 'offline', 30_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, world.panel, 'running', 60_000);
  });

  afterAll(async () => {
    await world?.close();
    console.log(`schedules screenshots: ${SHOTS}`);
  });

  it("creates a schedule from the list with the spec's defaults", async () => {
    await page.getByRole('link', { name: 'Schedules', exact: true }).click();
    await page.getByRole('heading', { name: 'Schedules' }).waitFor();
    await expect.poll(() => page.title()).toBe('Timed World | Schedules');
    await page.getByText('There are no schedules configured for this server.').waitFor();

    await page.getByRole('button', { name: 'Create schedule' }).click();
    const modal = dialog();
    await expect(modal.getByLabel('Minute').inputValue()).resolves.toBe('*/5');
    for (const field of ['Hour', 'Day (Month)', 'Month', 'Day (Week)']) {
      await expect(modal.getByLabel(field, { exact: true }).inputValue()).resolves.toBe('*');
    }
    await expect(
      modal.getByRole('switch', { name: 'Schedule Enabled' }).getAttribute('aria-checked'),
    ).resolves.toBe('true');
    await expect(
      modal.getByRole('switch', { name: 'Only When Server Is Online' }).getAttribute('aria-checked'),
    ).resolves.toBe('true');
    // Keyboard: the name field has the focus; typing and Enter submit the form.
    await page.keyboard.type('Announce and stop');
    await shots('schedules-create');
    await page.keyboard.press('Enter');
    await modal.waitFor({ state: 'detached' });

    const row = page.getByRole('listitem').filter({ hasText: 'Announce and stop' });
    await row.getByText('Every 5 minutes').waitFor();
    await expect(row.getByTestId('schedule-cron').textContent()).resolves.toBe('*/5 * * * *');
    await expect(row.getByTestId('schedule-badge').textContent()).resolves.toBe('Active');
    await expect(row.getByTestId('schedule-last-run').textContent()).resolves.toBe('n/a');
    await expect(row.getByTestId('schedule-next-run').textContent()).resolves.not.toBe('n/a');
    await shots('schedules-list');

    await row.getByRole('link').click();
    await page.waitForURL(/\/schedules\/\d+$/);
    scheduleUrl = page.url();
    expect(scheduleUrl.startsWith(`${world.panel.url}/server/${server.identifier}/schedules/`)).toBe(true);
    await page.getByRole('heading', { name: 'Announce and stop' }).waitFor();
  });

  it('adds a command task and a power task, in order; a backup task is refused at a backup limit of 0', async () => {
    await page.getByRole('button', { name: 'New Task' }).click();
    let modal = dialog();
    await expect(modal.getByLabel('Action').inputValue()).resolves.toBe('command');
    await expect(modal.getByLabel('Time offset (in seconds)').inputValue()).resolves.toBe('0');
    // The fixture's servers have a backup limit of 0.
    await modal.getByLabel('Action').selectOption('backup');
    await modal
      .getByText("A backup task cannot be created when the server's backup limit is set to 0.")
      .waitFor();
    await expect(modal.getByRole('button', { name: 'Create task' }).isDisabled()).resolves.toBe(true);
    await modal.getByLabel('Action').selectOption('command');
    await modal.getByRole('button', { name: 'Create task' }).click();
    await modal.getByText('A task payload must be provided.').waitFor();
    await modal.getByLabel('Command').fill(COMMAND);
    await modal.getByRole('button', { name: 'Create task' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByTestId('task-payload').filter({ hasText: COMMAND }).waitFor();

    await page.getByRole('button', { name: 'New Task' }).click();
    modal = dialog();
    await modal.getByLabel('Action').selectOption('power');
    await expect(modal.getByLabel('Power action').inputValue()).resolves.toBe('start');
    await modal.getByLabel('Power action').selectOption('stop');
    await modal.getByLabel('Time offset (in seconds)').fill('5');
    await shots('schedules-task-modal');
    await modal.getByRole('button', { name: 'Create task' }).click();
    await modal.waitFor({ state: 'detached' });

    const tasks = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
    await expect.poll(() => tasks.count()).toBe(2);
    await expect(tasks.nth(0).getByTestId('task-action').textContent()).resolves.toBe('Send command');
    await expect(tasks.nth(0).getByTestId('task-payload').textContent()).resolves.toBe(COMMAND);
    await expect(tasks.nth(1).getByTestId('task-action').textContent()).resolves.toBe('Send power action');
    await expect(tasks.nth(1).getByTestId('task-payload').textContent()).resolves.toBe('Stop the server');
    await expect(tasks.nth(1).getByTestId('task-offset').textContent()).resolves.toBe('Delay 5 s');
  });

  it('Run Now: processing with Run Now disabled, the command in the console, the server stopped, the last run shown', async () => {
    await page.getByRole('button', { name: 'Run Now' }).click();
    await expect.poll(badge).toBe('Processing');
    await expect(page.getByRole('button', { name: 'Run Now' }).isDisabled()).resolves.toBe(true);
    await shots('schedule-processing');

    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await expect
      .poll(() => terminalText(page), { timeout: 30_000 })
      .toContain('scheduled hello from the browser test');
    // The power task runs five seconds after the command.
    await waitForStatus(page, world.panel, 'offline', 60_000);

    await page.goto(scheduleUrl);
    await page.getByRole('heading', { name: 'Announce and stop' }).waitFor();
    await expect.poll(badge, { timeout: 30_000 }).toBe('Active');
    await expect(page.getByTestId('schedule-last-run').textContent()).resolves.not.toBe('n/a');
    await expect(page.getByRole('button', { name: 'Run Now' }).isEnabled()).resolves.toBe(true);
  });

  it('edits the cron and shows it in words and fields', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const modal = dialog();
    await expect(modal.getByLabel('Schedule name').inputValue()).resolves.toBe('Announce and stop');
    await modal.getByLabel('Minute').fill('0');
    await modal.getByLabel('Hour', { exact: true }).fill('*/6');
    await modal.getByRole('button', { name: 'Save changes' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByText('Every 6 hours at minute 00').waitFor();
    await expect(page.getByTestId('cron-minute').textContent()).resolves.toBe('0');
    await expect(page.getByTestId('cron-hour').textContent()).resolves.toBe('*/6');

    // A cron the panel refuses keeps the modal open with its message.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await dialog().getByLabel('Minute').fill('61');
    await dialog().getByRole('button', { name: 'Save changes' }).click();
    await dialog().getByText('The cron data provided does not evaluate to a valid expression.').waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('cron-minute').textContent()).resolves.toBe('0');
    await shots('schedule-detail');
  });

  it('a subuser with schedule.read only sees the schedule without its buttons; one without schedule.* is denied', async () => {
    const viewerPage = await newPage(world.browser);
    await signIn(viewerPage, world.panel.url, viewer.username, viewer.password);
    await viewerPage.goto(`${world.panel.url}/server/${server.identifier}/schedules`);
    await viewerPage.getByText('Every 6 hours at minute 00').waitFor();
    await expect(viewerPage.getByRole('button', { name: 'Create schedule' }).count()).resolves.toBe(0);
    await viewerPage.goto(scheduleUrl);
    await viewerPage.getByRole('heading', { name: 'Announce and stop' }).waitFor();
    await viewerPage.getByRole('list', { name: 'Tasks' }).waitFor();
    for (const name of ['Edit', 'New Task', 'Delete', 'Run Now']) {
      await expect(viewerPage.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
    }
    await viewerPage.close();

    const outsiderPage = await newPage(world.browser);
    await signIn(outsiderPage, world.panel.url, outsider.username, outsider.password);
    await outsiderPage.goto(scheduleUrl);
    await outsiderPage.getByText('You do not have permission to access this page.').waitFor();
    await expect(outsiderPage.getByRole('link', { name: 'Schedules', exact: true }).count()).resolves.toBe(0);
    await outsiderPage.close();
  });

  it('deletes the schedule and returns to the list', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog().getByRole('button', { name: 'Delete schedule' }).click();
    await page.waitForURL(`${world.panel.url}/server/${server.identifier}/schedules`);
    await page.getByText('There are no schedules configured for this server.').waitFor();
    await page.goto(scheduleUrl);
    await page.getByText('This schedule could not be found.').waitFor();
  });
});
