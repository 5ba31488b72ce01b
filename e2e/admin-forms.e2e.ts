/**
 * Issue 24 item 5: the admin forms say what they do. One panel (with its local node, a mail catcher
 * and the machine's MariaDB as a database host) for the file; each test is one thing an operator
 * looked at and was misled by.
 */
import { spawnSync } from 'node:child_process';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mysqlAdmin, uniqueDatabaseName } from '../apps/panel/src/test-support/database-hosts.ts';
import { ROOT, decodeMail, newPage, screenshots, startSmtp, type MailCatcher } from './harness.ts';
import { signIn, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

const owner = { email: 'owner@example.test', username: 'owner', password: 'owner-password-1' };
const PAPER_EGG = 'packages/shared/test-fixtures/eggs/egg-paper.json';

let smtp: MailCatcher;
let world: World;
let admin: Page;
let server: CreatedServer;
/** the MariaDB database made on the host for `server`, dropped afterwards */
let database: { database: string; username: string } | null = null;

const url = (path: string) => `${world.panel.url}${path}`;

describe('admin forms say what they do', () => {
  beforeAll(async () => {
    smtp = await startSmtp();
    world = await startWorld({
      people: [owner],
      env: { MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port) },
    });
    // A second nest with an egg, to switch between nests in the create-server form.
    const imported = spawnSync(
      `${ROOT}/node_modules/.bin/tsx`,
      ['apps/panel/src/cli/main.ts', 'egg:import', '--file', PAPER_EGG, '--nest', 'Community'],
      { cwd: ROOT, env: world.panel.env, encoding: 'utf8' },
    );
    if (imported.status !== 0) throw new Error(`egg:import failed:\n${imported.stdout}\n${imported.stderr}`);
    // Mixed case, so a name shown in capitals would differ from what must be typed.
    server = await world.server({ owner, name: 'Mixed Case World', allocations: 2, databases: 1 });
    admin = world.page;
    await signIn(admin, world.panel.url, world.panel.admin.username, world.panel.admin.password);
  });

  afterAll(async () => {
    if (database) {
      const a = await mysqlAdmin();
      const c = await mysql.createConnection({
        host: a.host,
        port: a.port,
        user: a.username,
        password: a.password,
      });
      try {
        await c.query(`DROP DATABASE IF EXISTS \`${database.database.replace(/`/g, '')}\``);
        await c.query('DROP USER IF EXISTS ?@?', [database.username, '%']);
      } finally {
        await c.end();
      }
    }
    await world?.close();
    await smtp?.close();
  });

  it('create and Build name the allocation limit alike: the total, the primary included', async () => {
    const label = 'Allocations (including the primary)';
    const hint =
      'How many addresses the server may have in all, its primary address included: 1 lets the owner add none.';
    await admin.goto(url('/admin/servers/new'));
    await admin.getByLabel(label).waitFor();
    expect(await admin.getByText(hint).count()).toBe(1);
    await admin.goto(url(`/admin/servers/view/${server.id}/build`));
    await expect.poll(() => admin.getByLabel(label).inputValue()).toBe('2');
    expect(await admin.getByText(hint).count()).toBe(1);
    await screenshots(admin, 'admin-forms-build');
  });

  it('the delete confirmation shows the server name as it must be typed', async () => {
    await admin.goto(url(`/admin/servers/view/${server.id}/manage`));
    await admin.getByRole('button', { name: 'Delete server', exact: true }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.waitFor();
    // innerText is what the eye sees: it applies CSS text-transform.
    expect(await dialog.innerText()).toContain('Mixed Case World');
    expect(await dialog.innerText()).not.toContain('MIXED CASE WORLD');
    await screenshots(admin, 'admin-forms-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('the out-of-memory option is offered only where it has an effect, saying so alike on create and Build', async () => {
    const option = 'Stop the server when it runs out of memory (OOM killer)';
    const hint =
      'Docker nodes only: when off, a server at its memory limit waits for memory instead of being stopped. Nodes that run servers as processes always stop a server that needs more memory than its limit.';
    const processNode =
      'This node runs servers as processes: a server that needs more memory than its limit is always stopped. (The out-of-memory killer option applies only on Docker nodes.)';
    // The form starts on the local node, which runs processes: the note stands in for the option.
    await admin.goto(url('/admin/servers/new'));
    await admin.getByText(processNode).waitFor();
    expect(await admin.getByRole('checkbox', { name: option }).count()).toBe(0);
    // Placed by location, the node is not known yet: the option, with where it applies.
    await admin.getByRole('radio', { name: 'Automatically, in chosen locations' }).check();
    await admin.getByRole('checkbox', { name: option }).waitFor();
    expect(await admin.getByText(hint).count()).toBe(1);
    await screenshots(admin, 'admin-forms-new-server-limits');
    await admin.goto(url(`/admin/servers/view/${server.id}/build`));
    await admin.getByText(processNode).waitFor();
    expect(await admin.getByRole('checkbox', { name: option }).count()).toBe(0);
  });

  it('the client-allocation hint says a free existing address is given before a new port', async () => {
    await admin.goto(url('/admin/settings'));
    await admin
      .getByText(
        "Users with the permission can add an address to their server: a free address of its node on the primary address's IP is given first; only when there is none is a new port from this range made.",
      )
      .waitFor();
  });

  it('the location delete dialog asks before and does not say it is done', async () => {
    await admin.goto(url('/admin/locations'));
    await admin.getByRole('button', { name: 'Delete location local' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).not.toContain('is deleted');
    expect(text).toContain('The location local will be deleted.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('the invitation mail greets the invited user by their username', async () => {
    const page = await newPage(world.browser);
    await signIn(page, world.panel.url, owner.username, owner.password);
    await page.goto(url(`/server/${server.identifier}/users`));
    await page.getByRole('button', { name: 'New User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill('guest@example.test');
    await dialog
      .getByTestId('permission-group-control')
      .getByRole('checkbox', { name: 'console', exact: true })
      .check();
    await dialog.getByRole('button', { name: 'Invite User' }).click();
    await page.locator('li', { hasText: 'guest@example.test' }).waitFor();
    const mail = decodeMail((await smtp.waitFor('guest@example.test')).raw);
    const invited = await world.api.get<{ data: { attributes: { username: string } }[] }>(
      '/api/application/users?filter[email]=guest@example.test',
    );
    expect(mail).toContain(`Hello ${invited.data[0]!.attributes.username},`);
    expect(mail).not.toContain('Hello Server');
    await page.context().close();
  });

  it('the embedded local node offers no setup command; another node does', async () => {
    const nodes = await world.api.get<{
      data: { attributes: { id: number; name: string; location_id: number } }[];
    }>('/api/application/nodes');
    const local = nodes.data.find((n) => n.attributes.name === 'Local')!.attributes;
    await admin.goto(url(`/admin/nodes/view/${local.id}/configuration`));
    await admin
      .getByText('The panel configures and starts this node’s daemon itself: it needs no setup command.')
      .waitFor();
    expect(await admin.getByRole('button', { name: 'Generate setup command' }).count()).toBe(0);
    await screenshots(admin, 'admin-forms-local-node');

    const other = await world.api.post<{ attributes: { id: number } }>('/api/application/nodes', {
      name: 'Remote',
      location_id: local.location_id,
      fqdn: '127.0.0.2',
      scheme: 'http',
      memory: 1024,
      memory_overallocate: 0,
      disk: 1024,
      disk_overallocate: 0,
      upload_size: 100,
      daemon_listen: 8080,
      daemon_sftp: 2022,
    });
    await admin.goto(url(`/admin/nodes/view/${other.attributes.id}/configuration`));
    await admin.getByRole('button', { name: 'Generate setup command' }).waitFor();
  });

  it('switching the nest of a new server asks for no egg of the previous nest', async () => {
    const refused: string[] = [];
    admin.on('response', (response) => {
      if (response.url().includes('/api/application/nests/') && response.status() >= 400)
        refused.push(`${response.status()} ${response.url()}`);
    });
    await admin.goto(url('/admin/servers/new'));
    const egg = admin.getByLabel('Egg', { exact: true });
    await expect.poll(() => egg.inputValue()).not.toBe('');
    const paperLoaded = admin.waitForResponse(
      (r) => /\/api\/application\/nests\/\d+\/eggs\/\d+/u.test(r.url()) && r.status() === 200,
    );
    await admin.getByLabel('Nest', { exact: true }).selectOption({ label: 'Community' });
    await paperLoaded;
    await expect.poll(() => egg.locator('option:checked').innerText()).toBe('Paper');
    expect(refused).toEqual([]);
  });

  it('the create-user form asks for the first and last name, and the API stores them', async () => {
    await admin.goto(url('/admin/users/new'));
    await admin.getByLabel('Email').fill('named@example.test');
    await admin.getByLabel('Username').fill('named');
    await admin.getByLabel('First name').fill('Ada');
    await admin.getByLabel('Last name').fill('Lovelace');
    await admin.getByRole('button', { name: 'Create user' }).click();
    await admin.waitForURL(/\/admin\/users\/view\/\d+$/u);
    const users = await world.api.get<{ data: { attributes: { first_name: string; last_name: string } }[] }>(
      '/api/application/users?filter[email]=named@example.test',
    );
    expect(users.data[0]!.attributes).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('the database host page lists its databases with their servers', async () => {
    const a = await mysqlAdmin();
    const host = await world.api.post<{ attributes: { id: number } }>('/api/application/database-hosts', {
      name: 'Local MariaDB',
      host: a.host,
      port: a.port,
      username: a.username,
      password: a.password,
    });
    const made = await world.api.post<{ attributes: { database: string; username: string } }>(
      `/api/application/servers/${server.id}/databases`,
      { database: uniqueDatabaseName('forms'), remote: '%', host: host.attributes.id },
    );
    database = made.attributes;
    await admin.goto(url(`/admin/databases/view/${host.attributes.id}`));
    const table = admin.getByRole('table', { name: 'Databases on this host' });
    const row = table.getByRole('row', { name: new RegExp(made.attributes.database, 'u') });
    await row.waitFor();
    expect(await row.innerText()).toContain(made.attributes.username);
    expect(await row.innerText()).toContain('%');
    await row.getByRole('link', { name: 'Mixed Case World' }).click();
    await admin.waitForURL(new RegExp(`/admin/servers/view/${server.id}(/|$)`, 'u'));
    await admin.goBack();
    await row.waitFor();
    await screenshots(admin, 'admin-forms-database-host');
  });
});
