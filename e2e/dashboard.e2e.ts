import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, screenshots, startPanel, type Panel } from './harness.ts';
import {
  applicationApi,
  createServer,
  eggId,
  signIn,
  userId,
  type AppApi,
  type CreatedServer,
} from './servers.ts';

const many = { email: 'many@example.test', username: 'many', password: 'many-password-1' };
const other = { email: 'other@example.test', username: 'other', password: 'other-password-1' };

let panel: Panel;
let api: AppApi;
let browser: Browser;
let page: Page;
let servers: CreatedServer[] = [];
let othersServer: CreatedServer;

function pathAndQuery(): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

describe('dashboard and search in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel();
    panel.createUser(many);
    panel.createUser(other);
    api = applicationApi(panel, panel.admin.username);
    const egg = await eggId(api, 'Node.js Game Server');
    const manyId = await userId(api, many.username);
    // 60 servers without install scripts; created a few at a time to keep the daemon calm.
    for (let batch = 0; batch < 6; batch++) {
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          createServer(api, {
            name: `Box ${String(batch * 10 + i + 1).padStart(2, '0')}`,
            user: manyId,
            egg,
            skipScripts: true,
            memory: 16,
          }),
        ),
      );
      servers = servers.concat(made);
    }
    othersServer = await createServer(api, {
      name: 'Somebody Else',
      user: await userId(api, other.username),
      egg,
      skipScripts: true,
      memory: 16,
    });
    browser = await launchBrowser();
    page = await newPage(browser);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
  });

  it('pages through 60 servers; the address follows the page', async () => {
    await signIn(page, panel.url, many.username, many.password);
    await expect.poll(() => page.getByTestId('server-card').count()).toBe(50);
    expect(pathAndQuery()).toBe('/');
    await screenshots(page, 'dashboard-page-1');
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await pages.getByRole('link', { name: '2', exact: true }).click();
    await expect.poll(pathAndQuery).toBe('/?page=2');
    await expect.poll(() => page.getByTestId('server-card').count()).toBe(10);
    await expect(
      pages.getByRole('link', { name: '2', exact: true }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await page.reload();
    await expect.poll(() => page.getByTestId('server-card').count()).toBe(10);
    await pages.getByRole('link', { name: '1', exact: true }).click();
    await expect.poll(pathAndQuery).toBe('/');
    await page.goto(`${panel.url}/?page=1`);
    await expect.poll(pathAndQuery).toBe('/');
  });

  it('finds a server with meta + / by name, uuid and allocation', async () => {
    const target = servers[41]!;
    // Focus outside any input (the shortcut must not fire while typing).
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('Meta+Slash');
    const input = page.getByLabel('Search term');
    await input.waitFor();
    await page.getByText('Enter a server name, uuid, or allocation to begin searching.').waitFor();
    await input.fill('Bo');
    await page.getByText('Please enter at least three characters to begin searching.').waitFor();
    await input.fill(target.name);
    const result = page.getByTestId('search-result').filter({ hasText: target.name });
    await result.waitFor();
    await expect(page.getByTestId('search-result').count()).resolves.toBeLessThanOrEqual(5);
    await screenshots(page, 'search-modal');

    await input.fill(target.uuid);
    await result.waitFor();
    // The allocation as the owner's client API reports it.
    const port = await page.evaluate(async (id) => {
      const res = await fetch(`/api/client/servers/${id}`, { headers: { Accept: 'application/json' } });
      const body = (await res.json()) as {
        attributes: { relationships: { allocations: { data: { attributes: { port: number } }[] } } };
      };
      return body.attributes.relationships.allocations.data[0]!.attributes.port;
    }, target.identifier);
    await input.fill(String(port));
    await result.waitFor();
    await result.click();
    await page.waitForURL(`${panel.url}/server/${target.identifier}`);
  });

  it("the root admin's toggle shows others' servers and survives a reload", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await signIn(page, panel.url, panel.admin.username, panel.admin.password);
    await page.getByText('There are no servers associated with your account.').waitFor();
    await page.getByRole('switch', { name: 'Showing your servers' }).click();
    // 61 servers of other people: the last one is on page 2.
    await page.getByTestId('server-card').filter({ hasText: 'Box 01' }).waitFor();
    await page.reload();
    await page.getByRole('switch', { name: "Showing others' servers" }).waitFor();
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: '2', exact: true })
      .click();
    await page.getByTestId('server-card').filter({ hasText: othersServer.name }).waitFor();
    await screenshots(page, 'dashboard-admin-others');
    // The admin link of a server opens the admin view in a new tab.
    await page.goto(`${panel.url}/server/${othersServer.identifier}`);
    const link = page.getByTestId('admin-link');
    await expect(link.getAttribute('href')).resolves.toBe(`/admin/servers/view/${othersServer.id}`);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
  });
});
