import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, type Panel } from './harness.ts';
import { signIn, terminalText, waitForStatus, type AppApi, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The Network page in Chromium against the real panel and daemon: with client allocations enabled
// and a limit of 3, the owner adds an allocation, writes its notes, makes it primary and removes
// the old one; the create button goes away once the server holds 3.
const owner = { email: 'network-owner@example.test', username: 'networkowner', password: 'owner-password-1' };
const NOTE = 'Voice chat for the weekend';

let world: World;
let panel: Panel;
let api: AppApi;
let page: Page;
let game: CreatedServer;

interface StoredAllocation {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
}

/** An address as the pages show it: the alias (the local node's is localhost) or the IP, and the port. */
const shown = (a: StoredAllocation) => `${a.alias ?? a.ip}:${a.port}`;

/** The server's primary allocation id and its allocations, as the panel stores them (application API). */
async function stored(): Promise<{ primary: number; allocations: StoredAllocation[] }> {
  const server = await api.get<{
    attributes: {
      allocation: number;
      relationships: { allocations: { data: { attributes: StoredAllocation }[] } };
    };
  }>(`/api/application/servers/${game.id}?include=allocations`);
  return {
    primary: server.attributes.allocation,
    allocations: server.attributes.relationships.allocations.data.map((d) => d.attributes),
  };
}

const rows = () => page.locator('li[data-testid^="allocation-"]');
const createButton = () => page.getByRole('button', { name: 'Create Allocation', exact: true });

describe('server network page in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({
      people: [owner],
      env: {
        PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'true',
        // Only used once the node has no free port left on the primary's IP (not the case here).
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '29900',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: '29909',
      },
    });
    ({ panel, api, page } = world);
    game = await world.server({ name: 'Network World', owner, allocations: 3 });
  });

  afterAll(() => world?.close());

  it('the owner adds an allocation, writes its notes, makes it primary and removes the old one', async () => {
    const before = await stored();
    expect(before.allocations).toHaveLength(1);
    const first = before.allocations[0]!;

    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${game.identifier}`);
    await page.getByRole('link', { name: 'Network', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}/network`);
    await expect.poll(() => page.title()).toBe('Network World | Network');
    await expect.poll(() => rows().count()).toBe(1);
    const firstRow = page.getByTestId(`allocation-${first.id}`);
    await firstRow.getByText('Primary', { exact: true }).waitFor();
    await page.getByText('You are currently using 1 of 3 allowed allocations for this server.').waitFor();

    await createButton().click();
    await expect.poll(() => rows().count()).toBe(2);
    await page.getByText('You are currently using 2 of 3 allowed allocations for this server.').waitFor();
    const after = await stored();
    const added = after.allocations.find((a) => a.id !== first.id)!;
    expect(added.ip).toBe(first.ip);
    const addedRow = page.getByTestId(`allocation-${added.id}`);
    await addedRow.getByRole('button', { name: shown(added), exact: true }).waitFor();

    // Notes: typed key by key, sent once typing stops.
    let notePosts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/network/allocations/${added.id}`))
        notePosts += 1;
    });
    const notes = addedRow.getByLabel('Notes');
    await notes.focus();
    await notes.pressSequentially(NOTE, { delay: 25 });
    await addedRow.getByText('Saved').waitFor({ timeout: 10_000 });
    expect(notePosts).toBe(1);
    expect((await stored()).allocations.find((a) => a.id === added.id)?.notes).toBe(NOTE);

    // WCAG 2.5.3 (label in name): the accessible name starts with the words on the button, so
    // "click Make Primary" by voice finds it; the address tells the rows apart.
    const makePrimary = addedRow.getByRole('button', { name: `Make Primary: ${shown(added)}`, exact: true });
    const visible = (await makePrimary.innerText()).trim();
    expect(visible).toBe('Make Primary');
    expect(await makePrimary.getAttribute('aria-label')).toContain(visible);
    await makePrimary.click();
    await addedRow.getByText('Primary', { exact: true }).waitFor();
    await expect.poll(async () => (await stored()).primary).toBe(added.id);
    await expect(firstRow.getByText('Primary', { exact: true }).count()).resolves.toBe(0);
    await screenshots(page, 'server-network');

    // The old primary can go now; the new primary has no Remove button.
    await expect(addedRow.getByRole('button', { name: /^Remove/ }).count()).resolves.toBe(0);
    await firstRow.getByRole('button', { name: `Remove ${shown(first)}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${shown(first)} will be taken off this server`, { exact: false }).waitFor();
    await screenshots(page, 'server-network-remove');
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(async () => (await stored()).allocations.map((a) => a.id)).toEqual([added.id]);

    // A reload shows what the panel stored.
    await page.reload();
    await page.getByTestId(`allocation-${added.id}`).getByLabel('Notes').waitFor();
    await expect(page.getByTestId(`allocation-${added.id}`).getByLabel('Notes').inputValue()).resolves.toBe(
      NOTE,
    );
    await expect(rows().count()).resolves.toBe(1);
  });

  it('the create button goes away once the server holds its 3 allocations', async () => {
    await createButton().click();
    await expect.poll(() => rows().count()).toBe(2);
    await createButton().click();
    await expect.poll(() => rows().count()).toBe(3);
    await page.getByText('You are currently using 3 of 3 allowed allocations for this server.').waitFor();
    await expect(createButton().count()).resolves.toBe(0);
    expect((await stored()).allocations).toHaveLength(3);
    await screenshots(page, 'server-network-limit');
  });

  it('the console shows the new primary address, and the game server listens on its port', async () => {
    const { primary, allocations } = await stored();
    const current = allocations.find((a) => a.id === primary)!;
    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}`);
    await page.getByText(shown(current), { exact: true }).first().waitFor();
    await waitForStatus(page, panel, 'offline', 20_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await expect
      .poll(() => terminalText(page), { timeout: 30_000 })
      .toContain(`Listening on port ${current.port}`);
    // Something really answers there: the game's greeting is its MOTD.
    const greeting = await new Promise<string>((resolve, reject) => {
      const socket = connect(current.port, current.ip);
      socket.setEncoding('utf8');
      socket.once('data', (data: string) => {
        socket.destroy();
        resolve(data);
      });
      socket.once('error', reject);
    });
    expect(greeting).toContain('hi');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
  });
});
