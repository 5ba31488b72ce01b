import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshots, type Panel } from './harness.ts';
import { signIn, terminalText, waitForStatus, type AppApi, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The Startup page in Chromium against the real panel and daemon: a variable edited there is what
// the game server starts with; the panel's validation message shows under the variable; a subuser
// who may only read sees every variable read-only.
const owner = { email: 'startup-owner@example.test', username: 'startupowner', password: 'owner-password-1' };
const reader = {
  email: 'startup-reader@example.test',
  username: 'startupreader',
  password: 'reader-password-1',
};
const NEW_MOTD = 'Welcome to the startup test';

let world: World;
let panel: Panel;
let api: AppApi;
let browser: Browser;
let page: Page;
let game: CreatedServer;

/** The variables as the panel stores them (application API). */
async function storedEnvironment(): Promise<Record<string, string>> {
  const server = await api.get<{ attributes: { container: { environment: Record<string, string> } } }>(
    `/api/application/servers/${game.id}`,
  );
  return server.attributes.container.environment;
}

/** Counts the variable edits the page sends from now on. */
function countVariablePuts(target: Page): () => number {
  let count = 0;
  target.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/startup/variable')) count += 1;
  });
  return () => count;
}

describe('server startup page in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner, reader] });
    ({ panel, api, browser, page } = world);
    game = await world.server({
      name: 'Startup World',
      owner,
      // The game server reads its variables from the environment; the arguments make them visible
      // in the startup command the page shows.
      startup: 'node server.js --players {{MAX_PLAYERS}} --motd "{{MOTD}}"',
    });
    await world.share(game, reader, ['startup.read', 'websocket.connect']);
  });

  afterAll(() => world?.close());

  it('the owner edits MOTD: one request after typing stops, the command follows, the value is stored', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${game.identifier}/startup`);
    const command = page.getByTestId('startup-command');
    await command.waitFor();
    await expect.poll(() => page.title()).toBe('Startup World | Startup Settings');
    await expect.poll(() => command.textContent()).toBe('node server.js --players 10 --motd "hi"');
    await page.getByTestId('variable-WORLD_NAME').getByText('Read Only').waitFor();
    await expect(page.getByText('Read Only').count()).resolves.toBe(1);
    // The egg offers a single image: the selector is shown, disabled.
    await expect(page.getByLabel('Image', { exact: true }).isDisabled()).resolves.toBe(true);

    const puts = countVariablePuts(page);
    const motd = page.getByLabel('Message of the day');
    // Keyboard only: focus the field, clear it and type the new text key by key.
    await motd.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await motd.pressSequentially(NEW_MOTD, { delay: 30 });
    await page.getByTestId('variable-MOTD').getByText('Saved').waitFor({ timeout: 10_000 });
    await expect.poll(() => command.textContent()).toBe(`node server.js --players 10 --motd "${NEW_MOTD}"`);
    expect(puts()).toBe(1);
    expect((await storedEnvironment()).MOTD).toBe(NEW_MOTD);
    await screenshots(page, 'server-startup');

    await page.reload();
    await page.getByLabel('Message of the day').waitFor();
    await expect(page.getByLabel('Message of the day').inputValue()).resolves.toBe(NEW_MOTD);
  });

  it('the game server started from the console greets with the new MOTD', async () => {
    await page.getByRole('link', { name: 'Console', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}`);
    await waitForStatus(page, panel, 'offline', 20_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await expect
      .poll(() => terminalText(page), { timeout: 30_000 })
      .toContain(`MOTD: ${NEW_MOTD} | max players: 10`);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
  });

  it("shows the panel's message under a refused value and stores nothing", async () => {
    await page.getByRole('link', { name: 'Startup Settings', exact: true }).click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}/startup`);
    const players = page.getByLabel('Maximum players');
    await players.fill('abc');
    const card = page.getByTestId('variable-MAX_PLAYERS');
    await card.getByText('The value must be an integer.').waitFor({ timeout: 10_000 });
    await card.getByText('Not saved').waitFor();
    await expect(players.getAttribute('aria-invalid')).resolves.toBe('true');
    // Only that variable shows an error; the command keeps the stored value.
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await expect(page.getByTestId('startup-command').textContent()).resolves.toBe(
      `node server.js --players 10 --motd "${NEW_MOTD}"`,
    );
    expect((await storedEnvironment()).MAX_PLAYERS).toBe('10');
    await screenshots(page, 'server-startup-invalid');

    // A valid value clears the message.
    await players.fill('24');
    await card.getByText('Saved').waitFor({ timeout: 10_000 });
    await expect(card.getByRole('alert').count()).resolves.toBe(0);
    expect((await storedEnvironment()).MAX_PLAYERS).toBe('24');
  });

  it('a subuser without startup.update sees every variable read-only and sends nothing', async () => {
    const other = await newPage(browser);
    // Playwright's clock: time runs as usual until the test moves it on past the save delay.
    await other.clock.install();
    await signIn(other, panel.url, reader.username, reader.password);
    const puts = countVariablePuts(other);
    await other.goto(`${panel.url}/server/${game.identifier}`);
    await other.getByRole('link', { name: 'Startup Settings', exact: true }).click();
    await other.waitForURL(`${panel.url}/server/${game.identifier}/startup`);
    await other.getByTestId('variable-MOTD').getByText('Read Only').waitFor();
    await expect(other.getByText('Read Only', { exact: true }).count()).resolves.toBe(3);
    const motd = other.getByLabel('Message of the day');
    await expect(motd.inputValue()).resolves.toBe(NEW_MOTD);
    await expect(motd.getAttribute('readonly')).resolves.not.toBeNull();
    await motd.focus();
    await other.keyboard.type('xyz');
    // Fake time well past the web app's 500 ms save delay (VARIABLE_SAVE_DELAY_MS) fires any save
    // the typing scheduled, at once. A request the page makes afterwards is the acknowledgement:
    // requests are reported in the order the page makes them, so a PUT would be counted by then.
    await other.clock.runFor(5_000);
    const acknowledged = other.waitForRequest((r) => r.url().endsWith('/api/client/account'));
    await other.evaluate(() => fetch('/api/client/account').then((r) => r.status));
    await acknowledged;
    await expect(motd.inputValue()).resolves.toBe(NEW_MOTD);
    expect(puts()).toBe(0);
    await expect(other.getByLabel('Image', { exact: true }).isDisabled()).resolves.toBe(true);
    await screenshots(other, 'server-startup-read-only');
    await other.context().close();
  });
});
