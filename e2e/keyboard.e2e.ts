import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt, launchBrowser, newPage, startPanel, type Panel } from './harness.ts';
import {
  applicationApi,
  createServer,
  eggId,
  signIn,
  terminalText,
  userId,
  waitForStatus,
  waitInstalled,
  type CreatedServer,
} from './servers.ts';

const owner = { email: 'keys@example.test', username: 'keys', password: 'keys-password-1' };

let panel: Panel;
let browser: Browser;
let page: Page;
let server: CreatedServer;

/** One focus stop: a readable name, and whether it sits inside the xterm terminal. */
interface Stop {
  id: string | null;
  name: string;
  inTerminal: boolean;
}

/**
 * Tags every element a keyboard user should be able to reach (enabled, rendered, not tabindex -1)
 * with a data-kbd id, and returns their names. The xterm helper textarea counts too: it is fine to
 * stop there, as long as the next Tab moves on.
 */
function tagTabbables(target: Page): Promise<Stop[]> {
  return target.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';
    const stops: { id: string; name: string; inTerminal: boolean }[] = [];
    document.querySelectorAll<HTMLElement>(selector).forEach((el, i) => {
      if ((el as HTMLButtonElement).disabled || el.tabIndex < 0) return;
      if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') return;
      el.dataset.kbd = String(i);
      const name =
        el.getAttribute('aria-label') ??
        (((el as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? '') ||
          el.textContent?.trim() ||
          el.getAttribute('placeholder') ||
          el.tagName);
      stops.push({ id: String(i), name, inTerminal: el.closest('.xterm') !== null });
    });
    return stops;
  });
}

/** Where the focus is now. */
function focused(target: Page): Promise<Stop> {
  return target.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { id: null, name: 'BODY', inTerminal: false };
    const name =
      el.getAttribute('aria-label') ??
      (((el as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? '') ||
        el.textContent?.trim() ||
        el.getAttribute('placeholder') ||
        el.tagName);
    return { id: el.dataset.kbd ?? null, name, inTerminal: el.closest('.xterm') !== null };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focus leaves the document or comes back to where the walk
 * began, at most `limit` times, and returns every stop. A trap shows as the same stop repeated.
 */
async function walk(target: Page, key: 'Tab' | 'Shift+Tab', limit: number): Promise<Stop[]> {
  const stops: Stop[] = [];
  const start = await focused(target);
  for (let i = 0; i < limit; i += 1) {
    await target.keyboard.press(key);
    const now = await focused(target);
    if (now.id === null && now.name === 'BODY') break;
    if (start.id !== null && now.id === start.id) break;
    // Chromium wraps from the last element to the first when the page holds the window's focus:
    // back at the first stop (and not stuck on it) is the end of the round.
    const first = stops[0];
    if (first && now.id === first.id && stops[stops.length - 1]!.id !== now.id) break;
    stops.push(now);
  }
  return stops;
}

/** No stop may follow itself: Tab always moves on (the terminal once trapped it forever). */
function expectNoTrap(stops: Stop[]): void {
  for (let i = 1; i < stops.length; i += 1) {
    expect(
      stops[i]!.id === stops[i - 1]!.id || (stops[i]!.inTerminal && stops[i - 1]!.inTerminal),
      `focus stuck at "${stops[i]!.name}" after ${i} presses: ${stops.map((s) => s.name).join(' → ')}`,
    ).toBe(false);
  }
}

/** Every tabbable element of the page was reached by the walk. */
function expectAllReached(tabbables: Stop[], stops: Stop[]): void {
  const reached = new Set(stops.map((s) => s.id));
  const missed = tabbables.filter((t) => !reached.has(t.id)).map((t) => t.name);
  expect(missed, `not reachable by Tab: ${missed.join(', ')}`).toEqual([]);
}

/** Starts the walk from the top of the page, as a keyboard user arriving there does. */
async function fromTop(target: Page): Promise<void> {
  await target.evaluate(() => {
    // A blur alone leaves Chromium's sequential-navigation starting point where the focus was:
    // focusing the body moves it to the top of the document.
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
    window.scrollTo(0, 0);
  });
}

/** Tab from the top reaches every control and leaves the page; Shift+Tab from there goes back through all. */
async function expectKeyboardWalkable(target: Page): Promise<Stop[]> {
  const tabbables = await tagTabbables(target);
  await fromTop(target);
  const forward = await walk(target, 'Tab', tabbables.length + 10);
  expectNoTrap(forward);
  expectAllReached(tabbables, forward);
  const backward = await walk(target, 'Shift+Tab', tabbables.length + 10);
  expectNoTrap(backward);
  expectAllReached(tabbables, backward);
  return tabbables;
}

/** Whether the focus is inside the open dialog. */
function focusInDialog(target: Page): Promise<boolean> {
  return target.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null);
}

/**
 * With a modal open, Tab and Shift+Tab cycle inside it: every press lands on a control of the
 * dialog, and every control of the dialog is reached.
 */
async function expectFocusKeptInDialog(target: Page): Promise<void> {
  const inside = await target.evaluate(() => {
    const dialog = document.querySelector('[role="dialog"]')!;
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';
    return Array.from(dialog.querySelectorAll<HTMLElement>(selector))
      .filter(
        (el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.getClientRects().length > 0,
      )
      .map((el, i) => {
        el.dataset.kbdDialog = String(i);
        return String(i);
      });
  });
  expect(inside.length).toBeGreaterThan(0);
  for (const key of ['Tab', 'Shift+Tab'] as const) {
    const seen = new Set<string>();
    for (let i = 0; i < inside.length * 2 + 2; i += 1) {
      await target.keyboard.press(key);
      expect(await focusInDialog(target), `${key} left the open dialog after ${i + 1} presses`).toBe(true);
      const id = await target.evaluate(
        () =>
          (document.activeElement as HTMLElement).dataset.kbdDialog ??
          document.activeElement!.outerHTML.slice(0, 80),
      );
      seen.add(id);
    }
    expect([...seen].sort()).toEqual([...inside].sort());
  }
}

/** The element that has the focus carries this accessible name. */
async function expectFocusOn(target: Page, name: string): Promise<void> {
  await expect.poll(() => focused(target).then((f) => f.name)).toBe(name);
}

describe('keyboard only: the console and the file manager in Chromium (real panel and daemon)', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    panel = await startPanel();
    panel.createUser(owner);
    const api = applicationApi(panel, panel.admin.username);
    const egg = await eggId(api, 'Node.js Game Server');
    server = await createServer(api, {
      name: 'Keyboard World',
      user: await userId(api, owner.username),
      egg,
    });
    await waitInstalled(api, server.id);
    browser = await launchBrowser();
    page = await newPage(browser);
    await signIn(page, panel.url, owner.username, owner.password);
  });

  afterAll(async () => {
    await browser?.close();
    await panel?.stop();
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
    expect(await focusInDialog(page), 'the dialog did not take the focus').toBe(true);
    // The secret loads after the dialog opens: walk it once its controls are all there.
    await page.getByLabel('Authentication Code').waitFor();
    await expectFocusKeptInDialog(page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await enable.evaluate((el) => el === document.activeElement), 'focus not back on Enable').toBe(
      true,
    );

    await page.goto(`${panel.url}/account/api`);
    await page.getByRole('button', { name: 'Create' }).waitFor();
    await expectKeyboardWalkable(page);

    // Creating a key with the keyboard alone: the key's modal (not dismissable) holds the focus.
    await page.getByLabel('Description').focus();
    await page.keyboard.type('keyboard key');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Your API Key' }).waitFor();
    expect(await focusInDialog(page), 'the new key dialog did not take the focus').toBe(true);
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
