import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newPage, type Panel } from './harness.ts';
import { signIn, terminalText, waitForStatus, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';
import {
  tagTabbables,
  focused,
  walk,
  expectNoTrap,
  expectAllReached,
  fromTop,
  expectKeyboardWalkable,
  focusInDialog,
  expectFocusKeptInDialog,
  expectFocusOn,
} from './keyboard.ts';

const owner = { email: 'keys@example.test', username: 'keys', password: 'keys-password-1' };

let world: World;
let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;

describe('keyboard only: the console and the file manager in Chromium (real panel and daemon)', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner] });
    ({ panel, browser, page } = world);
    server = await world.server({ name: 'Keyboard World', owner });
    await signIn(page, panel.url, owner.username, owner.password);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('console: Tab goes past the terminal to the command input and the power buttons; Shift+Tab goes back', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}`);
    await waitForStatus(page, panel, 'offline', 30_000);
    await page.getByLabel('Console command').and(page.locator(':enabled')).waitFor();
    const tabbables = await tagTabbables(page);
    expect(tabbables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Console command', 'Start', 'Restart']),
    );

    await fromTop(page);
    const forward = await walk(page, 'Tab', tabbables.length + 10);
    expectNoTrap(forward);
    expectAllReached(tabbables, forward);
    const names = forward.map((s) => s.name);
    expect(names.indexOf('Console command')).toBeLessThan(names.indexOf('Start'));

    // Back from the Start button: through the command input, past the terminal, to what precedes it.
    await page.getByRole('button', { name: 'Start', exact: true }).focus();
    const backward = await walk(page, 'Shift+Tab', tabbables.length + 10);
    expectNoTrap(backward);
    const back = backward.map((s) => s.name);
    expect(back).toContain('Console command');
    const lastTerminal = backward.findLastIndex((s) => s.inTerminal);
    expect(backward.length, `Shift+Tab stopped in the terminal: ${back.join(' ← ')}`).toBeGreaterThan(
      lastTerminal + 1,
    );
  });

  it('file manager: the toolbar and every row’s checkbox, name and actions are reachable; nothing traps', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files`);
    await page.getByTestId('file-row').first().waitFor();
    const rows = await page
      .getByTestId('file-row')
      .evaluateAll((els) => els.map((r) => r.getAttribute('data-name')!));
    expect(rows.length).toBeGreaterThan(0);
    const tabbables = await tagTabbables(page);
    const names = tabbables.map((t) => t.name);
    for (const row of rows) expect(names).toContain(`Actions for ${row}`);
    expect(names).toContain('Create Directory');

    await fromTop(page);
    const forward = await walk(page, 'Tab', tabbables.length + 10);
    expectNoTrap(forward);
    expectAllReached(tabbables, forward);

    const backward = await walk(page, 'Shift+Tab', tabbables.length + 10);
    expectNoTrap(backward);
    expectAllReached(tabbables, backward);
  });

  it('sign-in and forgot-password pages: every field, link and button is reachable, nothing traps', async () => {
    const guest = await newPage(browser);
    try {
      await guest.goto(`${panel.url}/auth/login`);
      await guest.getByLabel('Username or Email').waitFor();
      const signInStops = (await expectKeyboardWalkable(guest)).map((t) => t.name);
      expect(signInStops).toEqual(expect.arrayContaining(['Username or Email', 'Login']));
      await guest.goto(`${panel.url}/auth/password`);
      await guest.getByRole('button').first().waitFor();
      await expectKeyboardWalkable(guest);
    } finally {
      await guest.context().close();
    }
  });

  it('dashboard: walkable; meta+/ opens the search, focus stays in it, Escape returns it to the opener', async () => {
    await page.goto(`${panel.url}/`);
    await page.getByText('Keyboard World').first().waitFor();
    await expectKeyboardWalkable(page);

    // The shortcut from the page (focus not in an input) opens the search with its input focused.
    await fromTop(page);
    await page.keyboard.press('Meta+/');
    await page.getByRole('dialog').waitFor();
    await expectFocusOn(page, 'Search term');
    await page.keyboard.type('Keyboard');
    await page.getByTestId('search-result').waitFor();
    await expectFocusKeptInDialog(page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Opened from the search icon with Enter: closing puts the focus back on the icon.
    const icon = page.getByRole('button', { name: 'Search', exact: true });
    await icon.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await expectFocusOn(page, 'Search term');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(
      await icon.evaluate((el) => el === document.activeElement),
      'focus not back on the search icon',
    ).toBe(true);
  });

  it('account and API keys pages: walkable; the two-factor dialog keeps the focus and gives it back', async () => {
    await page.goto(`${panel.url}/account`);
    const enable = page.getByRole('button', { name: 'Enable', exact: true });
    await enable.waitFor();
    await expectKeyboardWalkable(page);

    await enable.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // The dialog moves the focus once it has mounted: wait for it rather than read it at once.
    await expect.poll(() => focusInDialog(page), { message: 'the dialog did not take the focus' }).toBe(true);
    // The secret loads after the dialog opens: walk it once its controls are all there.
    await page.getByLabel('Authentication Code').waitFor();
    await page.getByRole('dialog').getByTitle('Click to copy').waitFor();
    await expectFocusKeptInDialog(page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect
      .poll(() => enable.evaluate((el) => el === document.activeElement), {
        message: 'focus not back on Enable',
      })
      .toBe(true);

    await page.goto(`${panel.url}/account/api`);
    await page.getByRole('button', { name: 'Create' }).waitFor();
    await expectKeyboardWalkable(page);

    // Creating a key with the keyboard alone: the key's modal (not dismissable) holds the focus.
    await page.getByLabel('Description').focus();
    await page.keyboard.type('keyboard key');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Your API Key' }).waitFor();
    await expect
      .poll(() => focusInDialog(page), { message: 'the new key dialog did not take the focus' })
      .toBe(true);
    await expectFocusKeptInDialog(page);
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Delete API key/ }).waitFor();
    await expectKeyboardWalkable(page);
  });

  for (const [tab, ready] of [
    ['network', 'Notes'],
    ['startup', 'Startup Command'],
    ['settings', 'Server Name'],
    ['users', 'New User'],
    // The log loads after its filter: wait for an event of the list.
    ['activity', 'server:create'],
  ] as const) {
    it(`server ${tab} page: every control reachable by Tab and Shift+Tab, nothing traps`, async () => {
      await page.goto(`${panel.url}/server/${server.identifier}/${tab}`);
      await page.getByText(ready).first().waitFor();
      await page.locator('body :enabled').first().waitFor();
      await expectKeyboardWalkable(page);
    });
  }

  it('the new-user dialog keeps the focus, its permission list included, and gives it back', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/users`);
    const open = page.getByRole('button', { name: 'New User' });
    await open.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByLabel('Email').waitFor();
    expect(await focusInDialog(page), 'the dialog did not take the focus').toBe(true);
    await expectFocusKeptInDialog(page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await open.evaluate((el) => el === document.activeElement), 'focus not back on New User').toBe(
      true,
    );
  });

  it('account SSH keys and activity pages: walkable', async () => {
    await page.goto(`${panel.url}/account/ssh`);
    await page.getByRole('button', { name: 'Add Key' }).waitFor();
    await expectKeyboardWalkable(page);
    await page.goto(`${panel.url}/account/activity`);
    await page.getByTestId('activity-row').first().waitFor();
    await expectKeyboardWalkable(page);
  });

  it('file editor: Tab indents inside the editor; Escape then Tab (or Shift+Tab) leaves it', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files/edit#/server.js`);
    const content = page.locator('.cm-content');
    await content.waitFor();
    const inEditor = () => page.evaluate(() => document.activeElement?.closest('.cm-editor') != null);
    const text = () => content.evaluate((el) => el.textContent ?? '');

    await content.focus();
    const before = await text();
    await page.keyboard.press('Tab');
    // Tab is indentation while editing: the text changed and the focus stayed.
    await expect.poll(text).not.toBe(before);
    expect(await inEditor()).toBe(true);

    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await inEditor(), 'Escape then Tab did not leave the editor').toBe(false);
    expect(await focused(page).then((f) => f.name)).not.toBe('BODY');

    await content.focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    expect(await inEditor(), 'Escape then Shift+Tab did not leave the editor').toBe(false);
    expect(await focused(page).then((f) => f.name)).not.toBe('BODY');
  });

  it('an offline server shows its last output after a reload; a command typed then says why it was not sent', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}`);
    await waitForStatus(page, panel, 'offline', 30_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toContain('For help, type "help"');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);

    // Watch what the page sends from now on: the reload opens a new socket.
    const sent: string[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
    await page.reload();
    await waitForStatus(page, panel, 'offline', 30_000);
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('For help, type "help"');
    // The page knows the server is offline before a command is typed: Start is enabled only then
    // (and only with the socket connected).
    await page.getByRole('button', { name: 'Start', exact: true }).and(page.locator(':enabled')).waitFor();

    const input = page.getByLabel('Console command');
    await input.fill('say nobody hears this');
    await input.press('Enter');
    await page.getByText('The server is offline: start it to send commands.').waitFor();
    // The socket delivers frames in order: once this later Start is seen sent, the command would
    // have been seen before it.
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => sent.some((f) => f.includes('"set state"'))).toBe(true);
    expect(sent.filter((f) => f.includes('send command'))).toEqual([]);
  });
});
