import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, ROOT, screenshots, type Panel } from './harness.ts';
import {
  setServerStatus,
  signIn,
  terminalText,
  waitForStatus,
  type AppApi,
  type CreatedServer,
} from './servers.ts';
import { startWorld, type World } from './world.ts';

// The console's egg feature panels (EULA, Java image), the conflict notices and a user who may not
// use the live console, in Chromium against the real panel and daemon.
const owner = { email: 'eula-owner@example.test', username: 'eulaowner', password: 'owner-password-1' };
const watcher = { email: 'watcher@example.test', username: 'watcher', password: 'watcher-password-1' };
const JAVA_17 = 'ghcr.io/talon/java:17';

let world: World;
let panel: Panel;
let api: AppApi;
let browser: Browser;
let page: Page;
let eula: CreatedServer;
let plain: CreatedServer;

const terminal = () => terminalText(page);

/**
 * Crash detection has given up restarting. The refusing server exits cleanly, which the daemon
 * counts as a crash: it restarts it once, and after the second exit within its timeout it says it
 * will not restart it again. That notice is the daemon's own acknowledgement: it comes after the
 * `offline` status, once the decision not to restart is taken, so the status stays `offline` (a
 * status that stays put for a while would only be a guess).
 */
async function settledOffline(): Promise<void> {
  await expect.poll(terminal, { timeout: 60_000 }).toContain('Aborting automatic restart');
  await waitForStatus(page, panel, 'offline', 60_000);
}

describe('console feature panels and notices in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({
      people: [owner, watcher],
      eggFiles: [path.join(ROOT, 'e2e/fixtures/eula-egg.json')],
    });
    ({ panel, api, browser, page } = world);
    eula = await world.server({
      name: 'Guarded World',
      owner,
      egg: 'EULA Test Server',
      image: JAVA_17,
      environment: {},
    });
    plain = await world.server({ name: 'Busy World', owner, skipScripts: true });
    // Neither websocket.connect nor file.create: no live console, no EULA button.
    await world.share(eula, watcher, ['control.console', 'file.read-content']);
  });

  afterAll(() => world?.close());

  it('accepts the EULA after the server asked for it, writes eula.txt and starts the server', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${eula.identifier}`);
    const eulaPanel = page.getByTestId('eula-panel');
    await eulaPanel.getByRole('button', { name: 'I Accept' }).waitFor();
    await waitForStatus(page, panel, 'offline', 20_000);

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect
      .poll(terminal, { timeout: 30_000 })
      .toContain('You need to agree to the EULA in order to run the server');
    await eulaPanel.getByText('The server stopped because its EULA has not been accepted yet.').waitFor();
    await settledOffline();
    await screenshots(page, 'server-eula-prompt');

    await eulaPanel.getByRole('button', { name: 'I Accept' }).click();
    await eulaPanel.getByText('The EULA has been accepted for this server.').waitFor();
    const file = path.join(panel.dataDir, 'daemon', 'volumes', eula.uuid, 'eula.txt');
    expect(readFileSync(file, 'utf8')).toBe('eula=true\n');
    await waitForStatus(page, panel, 'running', 60_000);
    await expect.poll(terminal, { timeout: 30_000 }).toContain('Done (0.01s)!');

    // A reload reads eula.txt back through the panel: still accepted, no button.
    await page.reload();
    await page.getByTestId('eula-accepted').waitFor();
    await expect(page.getByRole('button', { name: 'I Accept' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
  });

  it("switches the Java image among the egg's images and keeps the choice", async () => {
    const javaPanel = page.getByTestId('java-panel');
    await expect.poll(() => javaPanel.getByTestId('java-current').textContent()).toBe('Java 17');
    await javaPanel.getByLabel('Java image').selectOption({ label: 'Java 21' });
    await javaPanel.getByRole('button', { name: 'Change image' }).click();
    await javaPanel.getByText('The image has been changed. Restart the server to run on it.').waitFor();
    await screenshots(page, 'server-java-image');
    await page.reload();
    await expect.poll(() => page.getByTestId('java-current').textContent()).toBe('Java 21');
    const stored = await api.get<{ attributes: { container: { image: string } } }>(
      `/api/application/servers/${eula.id}`,
    );
    expect(stored.attributes.container.image).toBe('ghcr.io/talon/java:21');
  });

  it('shows the installing and restoring notices; a root admin still gets the console', async () => {
    setServerStatus(panel, plain.id, 'installing');
    await page.goto(`${panel.url}/server/${plain.identifier}`);
    await page.getByText('Running Installer').waitFor();
    await page.getByText('Your server should be ready soon, please try again in a few minutes.').waitFor();
    await expect.poll(() => page.title()).toBe('Busy World | Running Installer');
    await screenshots(page, 'server-notice-installing');

    setServerStatus(panel, plain.id, 'restoring_backup');
    await page.reload();
    await page.getByText('Restoring from Backup').waitFor();
    await page
      .getByText('Your server is currently being restored from a backup, please check back in a few minutes.')
      .waitFor();
    await screenshots(page, 'server-notice-restoring');

    setServerStatus(panel, plain.id, 'installing');
    const admin = await newPage(browser);
    await signIn(admin, panel.url, panel.admin.username, panel.admin.password);
    await admin.goto(`${panel.url}/server/${plain.identifier}`);
    await admin
      .getByText(
        'This server is currently running its installation process and most actions are unavailable.',
      )
      .waitFor();
    await admin.getByTestId('console-terminal').waitFor();
    await expect(admin.getByText('Running Installer').count()).resolves.toBe(0);
    await admin.context().close();
    setServerStatus(panel, plain.id, null);
  });

  it('tells a subuser without websocket.connect or file.create why the console and EULA are closed', async () => {
    // Someone set the EULA back to false on disk: the panel reads the file, so it asks again.
    writeFileSync(path.join(panel.dataDir, 'daemon', 'volumes', eula.uuid, 'eula.txt'), 'eula=false\n');
    const other = await newPage(browser);
    await signIn(other, panel.url, watcher.username, watcher.password);
    let socketCalls = 0;
    other.on('request', (r) => {
      if (r.url().endsWith('/websocket')) socketCalls += 1;
    });
    await other.goto(`${panel.url}/server/${eula.identifier}`);
    await other
      .getByText(
        'You do not have permission to use the live console of this server. Ask its owner for access.',
      )
      .waitFor();
    await other.getByText('You do not have permission to accept the EULA for this server.').waitFor();
    await expect(other.getByRole('button', { name: 'I Accept' }).count()).resolves.toBe(0);
    // Not "Connecting...": nothing is being connected.
    await expect(other.getByTestId('server-status').textContent()).resolves.toBe('—');
    expect(socketCalls).toBe(0);
    await screenshots(other, 'server-no-console-permission');
    await other.context().close();
  });
});
