import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, screenshots, startPanel, type Panel } from './harness.ts';
import { expectFocusKeptInDialog, expectKeyboardWalkable } from './keyboard.ts';
import { applicationApi, signIn, terminalText, waitForStatus } from './servers.ts';

// Issue 16: an operator runs the whole panel from the browser. One fresh `npm start`-style panel for
// the whole file, driven in the order a new operator works: the printed admin signs in, follows the
// first steps, imports an egg, creates a player and a server for them, changes its build, suspends
// it, and makes an application key for a billing module.

const FIXTURE_EGGS = path.resolve(import.meta.dirname, '../packages/shared/test-fixtures/eggs');
const player = {
  email: 'player@example.test',
  username: 'player',
  firstName: 'Pat',
  lastName: 'Player',
  password: 'player-password-1',
};
const bystander = { email: 'bystander@example.test', username: 'bystander', password: 'bystander-pass-1' };

let panel: Panel;
let browser: Browser;
let admin: Page;
/** the server the admin creates, as the admin area's address shows it */
let serverId = '';

/** The local daemon's address and node token, from the configuration the panel wrote for it. */
function localDaemon(): { url: string; token: string } {
  const find = (dir: string): string | null => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        const found = find(full);
        if (found) return found;
      } else if (entry === 'config.json' && readFileSync(full, 'utf8').includes('"token_id"')) {
        return full;
      }
    }
    return null;
  };
  const file = find(panel.dataDir);
  if (!file) throw new Error('no daemon configuration in the panel data directory');
  const config = JSON.parse(readFileSync(file, 'utf8')) as {
    token_id: string;
    token: string;
    api: { port: number };
  };
  return { url: `http://127.0.0.1:${config.api.port}`, token: config.token };
}

/** What the daemon itself says of a server (Wings' GET /api/servers/{uuid}). */
async function daemonView(uuid: string): Promise<{ utilization: { memory_limit_bytes: number } }> {
  const daemon = localDaemon();
  const res = await fetch(`${daemon.url}/api/servers/${uuid}`, {
    headers: { Authorization: `Bearer ${daemon.token}`, Accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { utilization: { memory_limit_bytes: number } };
}

/** Follows a link of the admin area's side navigation. */
async function openAdminPage(name: string): Promise<void> {
  await admin
    .getByRole('navigation', { name: 'Administration' })
    .getByRole('link', { name, exact: true })
    .click();
}

/** The uuid of the only server on the local node, as the daemon lists it. */
async function serverUuid(): Promise<string> {
  const daemon = localDaemon();
  const res = await fetch(`${daemon.url}/api/servers`, {
    headers: { Authorization: `Bearer ${daemon.token}`, Accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  const servers = (await res.json()) as { configuration: { uuid: string } }[];
  expect(servers).toHaveLength(1);
  return servers[0]!.configuration.uuid;
}

async function ownerPage(): Promise<Page> {
  const page = await newPage(browser);
  await signIn(page, panel.url, player.username, player.password);
  return page;
}

describe('the admin area in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel();
    panel.createUser(bystander);
    browser = await launchBrowser();
    admin = await newPage(browser);
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('a signed-in player opening /admin gets the 404 page, and sees no admin link', async () => {
    const page = await newPage(browser);
    await signIn(page, panel.url, bystander.username, bystander.password);
    await expect.poll(() => page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto(`${panel.url}/admin`);
    await expect.poll(() => page.getByText('The requested resource was not found.').isVisible()).toBe(true);
    await page.goto(`${panel.url}/admin/servers/view/1`);
    await expect.poll(() => page.getByText('The requested resource was not found.').isVisible()).toBe(true);
    await page.context().close();
  });

  it('the printed admin signs in and the overview shows the first steps with the local node ready', async () => {
    await signIn(admin, panel.url, panel.admin.username, panel.admin.password);
    await admin.getByRole('link', { name: 'Admin' }).click();
    await admin.waitForURL(`${panel.url}/admin`);
    await expect.poll(() => admin.getByRole('heading', { name: 'First steps' }).isVisible()).toBe(true);
    // The embedded node answers its health check.
    await expect.poll(() => admin.getByText('Online').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => admin.getByText('Your node is ready (done)').isVisible()).toBe(true);
    await screenshots(admin, 'admin-overview');
  });

  it('imports an egg from a file by upload, and the importer’s answer is on screen', async () => {
    await openAdminPage('Nests and eggs');
    await admin.waitForURL(`${panel.url}/admin/nests`);
    await screenshots(admin, 'admin-nests');
    await admin.getByRole('table').getByRole('link', { name: 'Talon', exact: true }).click();
    await admin.waitForURL(/\/admin\/nests\/view\/\d+$/u);
    await admin.getByLabel('Egg file').setInputFiles(path.join(FIXTURE_EGGS, 'egg-paper.json'));
    await admin.getByRole('button', { name: 'Import egg' }).click();
    await expect.poll(() => admin.getByText('Imported the egg “Paper”.').isVisible()).toBe(true);
    await expect
      .poll(() => admin.getByRole('link', { name: 'Paper', exact: true }).count())
      .toBeGreaterThan(0);
    await screenshots(admin, 'admin-nest-view');
    await admin.getByRole('link', { name: 'Paper', exact: true }).first().click();
    await admin.waitForURL(/\/admin\/nests\/egg\/\d+/u);
    await expect.poll(() => admin.getByText('java -Xms128M').first().isVisible()).toBe(true);
    await screenshots(admin, 'admin-egg');
  });

  it('creates a user for the player', async () => {
    await openAdminPage('Users');
    await admin.waitForURL(`${panel.url}/admin/users`);
    await admin.getByRole('link', { name: 'Create user' }).click();
    await admin.waitForURL(`${panel.url}/admin/users/new`);
    await admin.getByLabel('Email').fill(player.email);
    await admin.getByLabel('Username').fill(player.username);
    await admin.getByLabel('First name').fill(player.firstName);
    await admin.getByLabel('Last name').fill(player.lastName);
    await admin.getByLabel('Password', { exact: true }).fill(player.password);
    await screenshots(admin, 'admin-user-new');
    await admin.getByRole('button', { name: 'Create user' }).click();
    await admin.waitForURL(/\/admin\/users\/view\/\d+$/u);
    await expect.poll(() => admin.getByText(player.email).first().isVisible()).toBe(true);
    await screenshots(admin, 'admin-user-view');
  });

  it('creates a server for the player on the local node, which installs and starts for its owner', async () => {
    await openAdminPage('Servers');
    await admin.waitForURL(`${panel.url}/admin/servers`);
    await admin.getByRole('link', { name: 'Create server' }).click();
    await admin.waitForURL(`${panel.url}/admin/servers/new`);
    await admin.getByRole('combobox', { name: 'Owner' }).fill('play');
    await admin.getByRole('option', { name: new RegExp(player.username, 'u') }).click();
    await admin.getByLabel('Server name').fill('Player World');
    await admin.getByLabel('Node', { exact: true }).selectOption({ label: 'Local' });
    await expect.poll(() => admin.getByLabel('Primary address').locator('option').count()).toBeGreaterThan(1);
    await admin.getByLabel('Primary address').selectOption({ index: 1 });
    await admin.getByLabel('Egg', { exact: true }).selectOption({ label: 'Node.js Game Server' });
    await admin.getByLabel('Memory (MiB)').fill('512');
    await admin.getByLabel('Start the server when installation finishes').check();
    await screenshots(admin, 'admin-server-new');
    await admin.getByRole('button', { name: 'Create server' }).click();
    await admin.waitForURL(/\/admin\/servers\/view\/\d+$/u);
    serverId = /view\/(\d+)/u.exec(admin.url())![1]!;
    await screenshots(admin, 'admin-server-about');

    const owner = await ownerPage();
    await owner.getByText('Player World').click();
    await owner.waitForURL(/\/server\/[0-9a-f]{8}$/u);
    // The install runs first (a notice stands in for the console until it ends); then
    // start_on_completion has the daemon start it without anyone pressing Start.
    await expect.poll(() => owner.getByTestId('server-status').isVisible(), { timeout: 120_000 }).toBe(true);
    await waitForStatus(owner, panel, 'running', 120_000);
    expect(await terminalText(owner)).not.toBe('');
    await owner.context().close();
  });

  it('lowers the memory limit on Build, and the node applies it', async () => {
    const tabs = admin.getByRole('navigation', { name: 'Server sections' });
    await tabs.getByRole('link', { name: 'Build' }).click();
    await admin.waitForURL(`${panel.url}/admin/servers/view/${serverId}/build`);
    const memory = admin.getByLabel('Memory (MiB)');
    await expect.poll(() => memory.inputValue()).toBe('512');
    await memory.fill('256');
    await admin.getByRole('button', { name: 'Save build' }).click();
    await expect
      .poll(() => admin.getByText(/^Saved\. The node applies the new limits at once/u).isVisible())
      .toBe(true);
    await screenshots(admin, 'admin-server-build');
    // The daemon itself now reports the lower limit for the running server.
    const uuid = await serverUuid();
    await expect
      .poll(async () => (await daemonView(uuid)).utilization.memory_limit_bytes)
      .toBe(256 * 1024 * 1024);
  });

  it('suspends the server on Manage, and its owner sees the notice', async () => {
    const tabs = admin.getByRole('navigation', { name: 'Server sections' });
    await tabs.getByRole('link', { name: 'Manage' }).click();
    await admin.waitForURL(`${panel.url}/admin/servers/view/${serverId}/manage`);
    await screenshots(admin, 'admin-server-manage');
    await admin.getByRole('button', { name: 'Suspend server' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect.poll(() => admin.getByText('The server is suspended.').isVisible()).toBe(true);
    await expect.poll(() => admin.getByRole('button', { name: 'Unsuspend server' }).isVisible()).toBe(true);

    const owner = await ownerPage();
    await owner.getByText('Player World').click();
    await expect
      .poll(() => owner.getByText('This server is suspended and cannot be accessed.').isVisible())
      .toBe(true);
    await screenshots(owner, 'admin-suspended-owner-view');
    await owner.context().close();
  });

  it('creates an application key limited to reading servers, which lists servers and cannot create one', async () => {
    await openAdminPage('Application API');
    await admin.waitForURL(`${panel.url}/admin/api`);
    await admin.getByLabel('Description').fill('Billing, servers read-only');
    await admin.getByRole('radiogroup', { name: 'Servers' }).getByText('Read', { exact: true }).click();
    await admin.getByRole('button', { name: 'Create key' }).click();
    const shown = admin.getByTestId('created-api-key');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const token = ((await shown.textContent()) ?? '').trim();
    expect(token).toMatch(/^ptla_/u);
    await screenshots(admin, 'admin-api-key-created');
    await admin.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => admin.getByText('Billing, servers read-only').isVisible()).toBe(true);
    await screenshots(admin, 'admin-api-keys');

    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${panel.url}/api/application${url}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const list = await call('GET', '/servers');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { object: string }).object).toBe('list');
    const create = await call('POST', '/servers', { name: 'Not allowed' });
    expect(create.status).toBe(403);
    expect(((await create.json()) as { errors: { detail: string }[] }).errors[0]?.detail).toBe(
      'This action is unauthorized.',
    );
    expect((await call('GET', '/users')).status).toBe(403);
  });
  it('every admin screen renders its content at desktop and phone width', async () => {
    // Addresses not visited above, each with a text that proves its content arrived.
    const screens: [string, string, string | RegExp][] = [
      ['admin-settings', '/admin/settings', 'Send test mail'],
      ['admin-users', '/admin/users', player.email],
      ['admin-servers', '/admin/servers', 'Player World'],
      ['admin-server-details', `/admin/servers/view/${serverId}/details`, 'Save details'],
      ['admin-server-startup', `/admin/servers/view/${serverId}/startup`, 'Startup command'],
      ['admin-server-databases', `/admin/servers/view/${serverId}/databases`, /database/iu],
      ['admin-nodes', '/admin/nodes', 'Local'],
      ['admin-node-settings', '/admin/nodes/view/1/settings', 'Daemon port'],
      // The embedded local node sets itself up: no setup command there.
      ['admin-node-configuration', '/admin/nodes/view/1/configuration', 'Set up by the panel'],
      ['admin-node-allocations', '/admin/nodes/view/1/allocations', /Add allocations|Add addresses/u],
      ['admin-locations', '/admin/locations', 'Create location'],
      ['admin-database-hosts', '/admin/databases', 'Create database host'],
    ];
    for (const [name, address, proof] of screens) {
      await admin.goto(`${panel.url}${address}`);
      await expect
        .poll(() => admin.getByText(proof).first().isVisible(), {
          message: `${address} shows ${String(proof)}`,
        })
        .toBe(true);
      await screenshots(admin, name);
    }
  });
  it('gives a one-line node setup command whose token fetches the configuration once', async () => {
    // A node of another machine (the local one is set up by the panel itself).
    const remote = await applicationApi(panel, panel.admin.username).post<{ attributes: { id: number } }>(
      '/api/application/nodes',
      {
        name: 'Remote',
        location_id: 1,
        fqdn: '127.0.0.2',
        scheme: 'http',
        memory: 1024,
        memory_overallocate: 0,
        disk: 1024,
        disk_overallocate: 0,
        daemon_listen: 8080,
        daemon_sftp: 2022,
      },
    );
    await admin.goto(`${panel.url}/admin/nodes/view/${remote.attributes.id}/configuration`);
    await admin.getByRole('button', { name: 'Generate setup command' }).click();
    const command = admin.getByText(/npm run -s daemon -- configure --panel-url/u);
    await expect.poll(() => command.isVisible()).toBe(true);
    const token = /--token (\S+)/u.exec((await command.textContent()) ?? '')?.[1];
    expect(token).toBeTruthy();
    await screenshots(admin, 'admin-node-setup-command');
    const redeem = () =>
      fetch(`${panel.url}/api/remote/node-setup/${token}`, { headers: { Accept: 'application/json' } });
    const first = await redeem();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { remote: string }).remote).toBe(panel.url);
    expect((await redeem()).status).toBe(404);
  });
  it('the admin screens can be used with the keyboard alone: Tab reaches and leaves everything', async () => {
    // The egg editor's code fields keep Tab for indenting (Esc, then Tab moves on): not walked here.
    const screens = [
      ['/admin', 'Memory given to servers'],
      ['/admin/users', player.email],
      ['/admin/servers/new', 'Startup command'],
      [`/admin/servers/view/${serverId}/build`, 'Save build'],
      ['/admin/nodes/view/1/allocations', 'Add allocations'],
      ['/admin/settings', 'Send test mail'],
      ['/admin/api', 'Create key'],
    ] as const;
    for (const [address, proof] of screens) {
      await admin.goto(`${panel.url}${address}`);
      await expect.poll(() => admin.getByText(proof).first().isVisible(), { message: address }).toBe(true);
      // Lists that arrive after the page (free addresses, node health) must be there before the walk.
      await admin.waitForLoadState('networkidle');
      await expectKeyboardWalkable(admin);
    }
    // A confirmation keeps the focus inside until it is answered.
    await admin.goto(`${panel.url}/admin/servers/view/${serverId}/manage`);
    await admin.getByRole('button', { name: 'Reinstall server' }).click();
    await expectFocusKeptInDialog(admin);
    await admin.keyboard.press('Escape');
    await expect.poll(() => admin.getByRole('dialog').count()).toBe(0);
  });
});
