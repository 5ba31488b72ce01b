import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, type Panel } from './harness.ts';
import { signIn, terminalText, waitForStatus, type AppApi, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

const owner = { email: 'owner@example.test', username: 'owner', password: 'owner-password-1' };
const helper = { email: 'helper@example.test', username: 'helper', password: 'helper-password-1' };

let world: World;
let panel: Panel;
let api: AppApi;
let page: Page;
let game: CreatedServer;
let frozen: CreatedServer;

const terminal = () => terminalText(page);

async function waitForTerminal(needle: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await terminal()).includes(needle)) return;
    if (Date.now() > deadline) throw new Error(`terminal never showed ${needle}:\n${await terminal()}`);
    await page.waitForTimeout(200);
  }
}

describe('server console in Chromium against the real panel and daemon', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, helper] });
    ({ panel, api, page } = world);
    game = await world.server({ name: 'Survival World', owner, description: 'The main world' });
    frozen = await world.server({ name: 'Frozen', owner, skipScripts: true, installed: false });
    await api.post(`/api/application/servers/${frozen.id}/suspend`);
    await world.share(game, helper, [
      'websocket.connect',
      'control.console',
      'control.stop',
      'control.restart',
    ]);
  });

  afterAll(() => world?.close());

  it('lists the servers on the dashboard with their figures and the suspended badge', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    const card = page.getByTestId('server-card').filter({ hasText: 'Survival World' });
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('The main world');
    await expect(card.textContent()).resolves.toContain('Local');
    await page
      .getByTestId('server-card')
      .filter({ hasText: 'Frozen' })
      .getByTestId('server-badge')
      .filter({ hasText: 'Suspended' })
      .waitFor();
    await card.getByText('Offline').waitFor();
    await screenshots(page, 'dashboard');
  });

  it('starts the server, runs a command, shows moving graphs, stops it (Stop turns into Kill)', async () => {
    await page.getByTestId('server-card').filter({ hasText: 'Survival World' }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}`);
    await expect.poll(() => page.title()).toBe('Survival World | Console');
    await waitForStatus(page, panel, 'offline', 20_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await waitForTerminal('For help, type "help"', 60_000);
    await expect(page.getByRole('button', { name: 'Start', exact: true }).isDisabled()).resolves.toBe(true);

    const input = page.getByLabel('Console command');
    await input.fill('say hello from the browser test');
    await input.press('Enter');
    await waitForTerminal('hello from the browser test');
    // History: the arrow key brings the last command back.
    await input.press('ArrowUp');
    await expect(input.inputValue()).resolves.toBe('say hello from the browser test');
    await input.fill('');

    const points = () =>
      page.locator('[data-testid="graph-cpu"] [data-points]').getAttribute('data-points').then(Number);
    const before = await points();
    await expect.poll(points, { timeout: 20_000 }).toBeGreaterThan(Math.max(before, 2));
    await screenshots(page, 'server-console-running');

    // The game server stops within moments, so Kill may show only briefly: record it as it appears.
    await page.evaluate(`(() => {
      window.__sawKill = false;
      const seen = () => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Kill');
      new MutationObserver(() => { if (seen()) window.__sawKill = true; })
        .observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => page.evaluate('window.__sawKill'), { timeout: 5_000 }).toBe(true);
    await waitForStatus(page, panel, 'offline', 60_000);
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Start', exact: true }).isEnabled()).resolves.toBe(true);
    await screenshots(page, 'server-console-offline');
  });

  it('a reinstall shows the installer notice live and gives the console back when it completes', async () => {
    // The install may take a moment only: record the notice as it appears, as with Kill above.
    await page.evaluate(`(() => {
      window.__sawInstaller = false;
      const seen = () => document.body.textContent.includes('Your server should be ready soon, please try again in a few minutes.');
      new MutationObserver(() => { if (seen()) window.__sawInstaller = true; })
        .observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await api.post(`/api/application/servers/${game.id}/reinstall`);
    await expect.poll(() => page.evaluate('window.__sawInstaller'), { timeout: 30_000 }).toBe(true);
    // `install completed` reloads the server: the console comes back without a page reload.
    await page.getByLabel('Console command').waitFor({ timeout: 90_000 });
    await expect(page.getByText('Running Installer').count()).resolves.toBe(0);
    await expect.poll(() => page.title()).toBe('Survival World | Console');
    await waitForStatus(page, panel, 'offline', 20_000);
  });

  it('shows the suspended notice instead of the console', async () => {
    await page.goto(`${panel.url}/server/${frozen.identifier}`);
    await page.getByText('This server is suspended and cannot be accessed.').waitFor();
    await page.getByRole('heading', { name: 'Server Suspended' }).waitFor();
    await expect.poll(() => page.title()).toBe('Frozen | Server Suspended');
    await screenshots(page, 'server-suspended');
  });

  it('a root admin still gets the console of a suspended server on its bare root path', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page, panel.url, panel.admin.username, panel.admin.password);
    await page.goto(`${panel.url}/server/${frozen.identifier}`);
    await page.getByLabel('Console command').waitFor();
    await expect(page.getByText('This server is suspended and cannot be accessed.').count()).resolves.toBe(0);
    await page.goto(`${panel.url}/server/${frozen.identifier}/files`);
    await page.getByText('This server is suspended and cannot be accessed.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page, panel.url, owner.username, owner.password);
  });

  it('gates tabs that need a permission and shows not-found for unknown paths', async () => {
    await page.goto(`${panel.url}/server/${game.identifier}/nothing-here`);
    await page.getByText('The requested resource was not found.').waitFor();
  });

  it('a subuser without control.start sees no Start button', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page, panel.url, helper.username, helper.password);
    await page.goto(`${panel.url}/server/${game.identifier}`);
    await waitForStatus(page, panel, 'offline', 20_000);
    await page.getByRole('button', { name: 'Restart' }).waitFor();
    await expect(page.getByRole('button', { name: 'Start', exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Stop', exact: true }).count()).resolves.toBe(1);
    await page.goto(`${panel.url}/server/${game.identifier}/files`);
    await page.getByText('You do not have permission to access this page.').waitFor();
    await screenshots(page, 'server-access-denied');
    // Neither settings.* nor file.sftp: no Settings tab.
    await expect(page.getByRole('link', { name: 'Settings', exact: true }).count()).resolves.toBe(0);
  });

  it('settings: the SFTP details shown let a real SFTP client in; renaming changes the title', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${game.identifier}`);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}/settings`);
    await expect.poll(() => page.title()).toBe('Survival World | Settings');
    const username = (await page.getByTestId('sftp-username').textContent()) ?? '';
    expect(username).toBe(`${owner.username}.${game.identifier}`);
    const address = new URL((await page.getByTestId('sftp-address').textContent()) ?? '');
    await screenshots(page, 'server-settings');

    // What the page says is what works: sign in over SFTP with it and the panel password.
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
        host: address.hostname.replace(/^\[|\]$/g, ''),
        port: Number(address.port),
        username,
        password: owner.password,
        readyTimeout: 15_000,
      });
    });
    expect(names).toContain('server.js');

    const form = page.getByRole('region', { name: 'Change Server Name' });
    await form.getByLabel('Server Name').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('A server name must be provided.').waitFor();
    await form.getByLabel('Server Name').fill('Survival World II');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText("The server's name and description have been saved.").waitFor();
    await expect.poll(() => page.title()).toBe('Survival World II | Settings');
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('server-card').filter({ hasText: 'Survival World II' }).waitFor();
  });
});
