/**
 * The Databases tab in Chromium against the real panel and the real MariaDB of this machine: the
 * owner creates a database, copies its password and connects with it, rotates it, deletes it by
 * name; a subuser without database.view_password never sees a password.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  connectMysql,
  mysqlAdmin,
  mysqlDatabaseExists,
} from '../apps/panel/src/test-support/database-hosts.ts';
import { DESKTOP, MOBILE, ROOT, newPage, type Panel } from './harness.ts';
import { signIn } from './servers.ts';
import { startWorld, type World } from './world.ts';
import type { CreatedServer } from './servers.ts';

const owner = { email: 'owner@example.test', username: 'owner', password: 'owner-password-1' };
const helper = { email: 'helper@example.test', username: 'helper', password: 'helper-password-1' };
const stranger = { email: 'stranger@example.test', username: 'stranger', password: 'stranger-password-1' };
/** Unique on the shared MariaDB: other runs and the panel's own tests use it at the same time. */
const NAME = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SECOND = `${NAME}b`;
const SHOTS = mkdtempSync(path.join(tmpdir(), 'talon-databases-shots-'));

let world: World;
let server: CreatedServer;
let ownerPage: Page;
let helperPage: Page;
/** What the page showed, for the checks against MariaDB and the clean-up. */
let fullName = '';
let username = '';
let firstPassword = '';
let rotatedPassword = '';
let secondName = '';
let secondUser = '';

/** Application API calls beyond the world's get/post (PATCH, DELETE), with a key of the admin's. */
function applicationRequest(panel: Panel) {
  const res = spawnSync(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['apps/panel/src/cli/main.ts', 'api-key:create', '--user', panel.admin.username, '--application'],
    { cwd: ROOT, env: panel.env, encoding: 'utf8' },
  );
  if (res.status !== 0) throw new Error(`api-key:create failed:\n${res.stdout}\n${res.stderr}`);
  const key = res.stdout.trim().split('\n').pop()!.trim();
  return async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(panel.url + url, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** `{name}-1280.png` and `{name}-390.png` in this run's own folder. */
async function shots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // Let the modal fade and the progress bar settle so the picture is stable.
  await page.waitForTimeout(500);
  for (const size of [DESKTOP, MOBILE]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

const dialog = (page: Page) => page.getByRole('dialog');

async function openDatabases(page: Page): Promise<void> {
  await page.goto(`${world.panel.url}/server/${server.identifier}/databases`);
  await page.getByRole('heading', { name: 'Databases' }).waitFor();
}

/** Whether MariaDB lets `password` in as the database's user. */
async function canConnect(password: string): Promise<boolean> {
  try {
    const connection = await connectMysql({ username, password, database: fullName });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

describe('databases in Chromium against the real panel and MariaDB', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, helper, stranger] });
    const call = applicationRequest(world.panel);
    const admin = await mysqlAdmin();
    await call('POST', '/api/application/database-hosts', {
      name: 'Local MariaDB',
      host: admin.host,
      port: admin.port,
      username: admin.username,
      password: admin.password,
    });
    server = await world.server({ owner, name: 'Data World' });
    // Two databases allowed (the fixture's servers get none).
    const current = await call<{
      attributes: {
        allocation: number;
        limits: Record<string, unknown>;
        feature_limits: Record<string, unknown>;
      };
    }>('GET', `/api/application/servers/${server.id}`);
    await call('PATCH', `/api/application/servers/${server.id}/build`, {
      allocation: current.attributes.allocation,
      limits: current.attributes.limits,
      feature_limits: { ...current.attributes.feature_limits, databases: 2 },
    });
    await world.share(server, helper, ['database.read', 'database.update']);
    await world.share(server, stranger, ['file.read']);
    ownerPage = world.page;
    await ownerPage.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: world.panel.url,
    });
    helperPage = await newPage(world.browser);
    await signIn(ownerPage, world.panel.url, owner.username, owner.password);
    await signIn(helperPage, world.panel.url, helper.username, helper.password);
  });

  afterAll(async () => {
    // Whatever a failed step left on the shared MariaDB goes (the names are this run's own).
    const admin = await mysqlAdmin();
    const c = await mysql.createConnection({
      host: admin.host,
      port: admin.port,
      user: admin.username,
      password: admin.password,
    });
    try {
      for (const name of [fullName, secondName].filter(Boolean)) {
        await c.query(`DROP DATABASE IF EXISTS \`${name.replace(/`/g, '')}\``);
      }
      for (const user of [username, secondUser].filter(Boolean)) {
        await c.query('DROP USER IF EXISTS ?@?', [user, '%']);
      }
    } finally {
      await c.end();
    }
    await world?.close();
    console.log(`databases screenshots: ${SHOTS}`);
  });

  it('the owner creates a database with the New Database modal', async () => {
    await openDatabases(ownerPage);
    await expect.poll(() => ownerPage.title()).toBe('Data World | Databases');
    await ownerPage.getByText('It looks like you have no databases.').waitFor();
    await ownerPage.getByText('0 of 2 databases have been allocated to this server.').waitFor();
    await shots(ownerPage, 'databases-empty');

    await ownerPage.getByRole('button', { name: 'New Database' }).click();
    const modal = dialog(ownerPage);
    await modal.getByRole('heading', { name: 'Create new database' }).waitFor();
    await expect(modal.getByLabel('Connections From').inputValue()).resolves.toBe('%');
    // The spec's messages, before anything is sent.
    await modal.getByRole('button', { name: 'Create Database' }).click();
    await modal.getByText('A database name must be provided.').waitFor();
    await modal.getByLabel('Database Name').fill('ab');
    await modal.getByLabel('Connections From').fill('10.0.0.0/8');
    await modal.getByLabel('Database Name').focus();
    await modal.getByText('Database name must be at least 3 characters.').waitFor();
    await modal.getByText('A valid connection address must be provided.').waitFor();
    await shots(ownerPage, 'databases-create-errors');

    await modal.getByLabel('Database Name').fill(NAME);
    await modal.getByLabel('Connections From').fill('%');
    fullName = `s${server.id}_${NAME}`;
    await modal.getByRole('button', { name: 'Create Database' }).click();
    const row = ownerPage.locator('li', { hasText: `_${NAME}` });
    await row.waitFor();
    await expect.poll(() => dialog(ownerPage).count()).toBe(0);
    await expect(row.locator('p').first().textContent()).resolves.toBe(fullName);
    username = (await row.getByTestId('database-username').textContent()) ?? '';
    expect(username).toMatch(new RegExp(`^u${server.id}_[A-Za-z0-9]{10}$`));
    await expect(row.getByTestId('database-endpoint').textContent()).resolves.toBe('127.0.0.1:3306');
    await expect(row.getByTestId('database-remote').textContent()).resolves.toBe('%');
    await ownerPage.getByText('1 of 2 databases have been allocated to this server.').waitFor();
    await shots(ownerPage, 'databases-list');
  });

  it('by keyboard alone: a second database reaches the limit (no New Database), then goes again', async () => {
    await ownerPage.getByRole('button', { name: 'New Database' }).focus();
    await ownerPage.keyboard.press('Enter');
    const modal = dialog(ownerPage);
    // The modal puts the focus in its first field; Enter submits.
    await expect
      .poll(() => modal.getByLabel('Database Name').evaluate((e) => e === document.activeElement))
      .toBe(true);
    await ownerPage.keyboard.type(SECOND);
    secondName = `s${server.id}_${SECOND}`;
    await ownerPage.keyboard.press('Enter');
    const row = ownerPage.locator('li', { hasText: `_${SECOND}` });
    await row.waitFor();
    secondUser = (await row.getByTestId('database-username').textContent()) ?? '';
    await ownerPage.getByText('2 of 2 databases have been allocated to this server.').waitFor();
    await expect(ownerPage.getByRole('button', { name: 'New Database' }).count()).resolves.toBe(0);
    await expect(mysqlDatabaseExists(secondName)).resolves.toBe(true);

    await row.getByRole('button', { name: `Delete the database ${secondName}` }).focus();
    await ownerPage.keyboard.press('Enter');
    await expect
      .poll(() => modal.getByLabel('Confirm Database Name').evaluate((e) => e === document.activeElement))
      .toBe(true);
    await ownerPage.keyboard.type(SECOND);
    await ownerPage.keyboard.press('Enter');
    await expect.poll(() => row.count()).toBe(0);
    await ownerPage.getByText('1 of 2 databases have been allocated to this server.').waitFor();
    await ownerPage.getByRole('button', { name: 'New Database' }).waitFor();
    await expect(mysqlDatabaseExists(secondName)).resolves.toBe(false);
  });

  it('the owner copies the password from the details and connects to MariaDB with it', async () => {
    await ownerPage.getByRole('button', { name: `Connection details of ${fullName}` }).click();
    const modal = dialog(ownerPage);
    await modal.getByRole('heading', { name: 'Database connection details' }).waitFor();
    const shown = (await modal.getByTestId('details-password').textContent()) ?? '';
    expect(shown.length).toBeGreaterThanOrEqual(24);
    await modal.getByTestId('details-password').click();
    await ownerPage.getByText(`Copied "${shown}" to clipboard.`).waitFor();
    firstPassword = await ownerPage.evaluate<string>('navigator.clipboard.readText()');
    expect(firstPassword).toBe(shown);
    await expect(modal.getByTestId('details-jdbc').textContent()).resolves.toBe(
      `jdbc:mysql://${username}:${encodeURIComponent(shown)}@127.0.0.1:3306/${fullName}`,
    );
    await shots(ownerPage, 'databases-details');

    // The copied password is real: the database's user gets in and may create a table there.
    const connection = await connectMysql({ username, password: firstPassword, database: fullName });
    try {
      await connection.query('CREATE TABLE players (id INT PRIMARY KEY, name VARCHAR(32))');
      await connection.query('INSERT INTO players VALUES (1, ?)', ['steve']);
      const [rows] = await connection.query('SELECT name FROM players');
      expect(rows).toEqual([{ name: 'steve' }]);
    } finally {
      await connection.end();
    }
  });

  it('the owner rotates the password: the old one stops working, the new one works', async () => {
    const modal = dialog(ownerPage);
    await modal.getByRole('button', { name: 'Rotate Password' }).click();
    await expect.poll(() => modal.getByTestId('details-password').textContent()).not.toBe(firstPassword);
    rotatedPassword = (await modal.getByTestId('details-password').textContent()) ?? '';
    await expect(canConnect(rotatedPassword)).resolves.toBe(true);
    await expect(canConnect(firstPassword)).resolves.toBe(false);
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => dialog(ownerPage).count()).toBe(0);
  });

  it('a subuser without database.view_password sees the database but never its password', async () => {
    await openDatabases(helperPage);
    const row = helperPage.locator('li', { hasText: fullName });
    await row.waitFor();
    // Neither create nor delete without their permissions.
    await expect(helperPage.getByRole('button', { name: 'New Database' }).count()).resolves.toBe(0);
    await expect(row.getByRole('button', { name: /Delete/ }).count()).resolves.toBe(0);
    await row.getByRole('button', { name: `Connection details of ${fullName}` }).click();
    const modal = dialog(helperPage);
    await modal.getByTestId('details-password-hidden').waitFor();
    await expect(modal.getByTestId('details-password').count()).resolves.toBe(0);
    await expect(modal.getByTestId('details-jdbc').textContent()).resolves.toBe(
      `jdbc:mysql://${username}@127.0.0.1:3306/${fullName}`,
    );
    // database.update: rotating is allowed, and still shows no password.
    await modal.getByRole('button', { name: 'Rotate Password' }).waitFor();
    // The panel withheld it too: nothing in the page's answer carries it.
    const answer = await helperPage.request.get(
      `${world.panel.url}/api/client/servers/${server.identifier}/databases?include=password`,
      { headers: { Accept: 'application/json' } },
    );
    expect(answer.status()).toBe(200);
    expect(JSON.stringify(await answer.json())).not.toContain('"database_password"');
    await shots(helperPage, 'databases-details-no-password');
  });

  it('a subuser without any database permission gets Access Denied', async () => {
    const page = await newPage(world.browser);
    await signIn(page, world.panel.url, stranger.username, stranger.password);
    await page.goto(`${world.panel.url}/server/${server.identifier}/databases`);
    await page.getByText('You do not have permission to access this page.').waitFor();
    await expect(
      page.getByTestId('server-tabs').getByRole('link', { name: 'Databases' }).count(),
    ).resolves.toBe(0);
    await page.close();
  });

  it('the owner deletes the database after typing its name; MariaDB no longer has it', async () => {
    await openDatabases(ownerPage);
    await ownerPage.getByRole('button', { name: `Delete the database ${fullName}` }).click();
    const modal = dialog(ownerPage);
    await modal.getByRole('heading', { name: 'Confirm database deletion' }).waitFor();
    const confirm = modal.getByRole('button', { name: 'Delete Database' });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await modal.getByLabel('Confirm Database Name').fill('wrong');
    await modal.getByLabel('Confirm Database Name').blur();
    await modal.getByText('The database name must be provided.').waitFor();
    await shots(ownerPage, 'databases-delete');
    // The part after the first underscore is enough.
    await modal.getByLabel('Confirm Database Name').fill(NAME);
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    await confirm.click();
    await ownerPage.getByText('It looks like you have no databases.').waitFor();
    await expect.poll(() => dialog(ownerPage).count()).toBe(0);
    await expect(mysqlDatabaseExists(fullName)).resolves.toBe(false);
    // The user went with it: not even the current password gets in any more.
    await expect(userExists()).resolves.toBe(false);
    await expect(canConnect(rotatedPassword)).resolves.toBe(false);
  });
});

/** Whether MariaDB still has the database's user (asked as the admin). */
async function userExists(): Promise<boolean> {
  const admin = await mysqlAdmin();
  const c = await mysql.createConnection({
    host: admin.host,
    port: admin.port,
    user: admin.username,
    password: admin.password,
  });
  try {
    const [rows] = await c.query('SELECT User FROM mysql.user WHERE User = ?', [username]);
    return (rows as unknown[]).length > 0;
  } finally {
    await c.end();
  }
}
