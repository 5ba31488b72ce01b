import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, type Panel } from './harness.ts';
import { signIn, waitForStatus, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';
import { expectFocusOn, fromTop } from './keyboard.ts';

// Issue 24, item 7 in Chromium against the real panel and daemon: what a keyboard user needs to
// see (the console input's focus ring, how to leave the file editor) and the search shortcut on
// Linux, where the spec's meta key is the system's own key. (Make Primary's accessible name is
// checked where the network page is walked: server-network.e2e.ts.)
const owner = { email: 'hints@example.test', username: 'hints', password: 'hints-password-1' };

let world: World;
let panel: Panel;
let page: Page;
let server: CreatedServer;

/** What draws a focus indicator on `selector`: its outline and its box shadow (Tailwind's ring). */
function indicator(target: Page, selector: string) {
  return target.locator(selector).evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      focusVisible: el.matches(':focus-visible'),
      outline: style.outlineStyle === 'none' ? 'none' : `${style.outlineStyle} ${style.outlineWidth}`,
      boxShadow: style.boxShadow,
    };
  });
}

describe('keyboard hints and shortcuts in Chromium', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner] });
    ({ panel, page } = world);
    server = await world.server({ name: 'Hint World', owner });
    await signIn(page, panel.url, owner.username, owner.password);
  });

  afterAll(() => world?.close());

  it('draws a visible focus ring around the console command input reached with Tab', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}`);
    await waitForStatus(page, panel, 'offline', 30_000);
    const input = page.getByLabel('Console command').and(page.locator(':enabled'));
    await input.waitFor();
    const selector = 'input[aria-label="Console command"]';
    const resting = await indicator(page, selector);

    // Reach it as a keyboard user does: Shift+Tab back from the Start button.
    await page.getByRole('button', { name: 'Start', exact: true }).focus();
    for (let i = 0; i < 10 && !(await input.evaluate((el) => el === document.activeElement)); i += 1) {
      await page.keyboard.press('Shift+Tab');
    }
    await expectFocusOn(page, 'Console command');
    const focused = await indicator(page, selector);
    expect(focused.focusVisible).toBe(true);
    // A ring is drawn (as box shadows) where there was none, or an outline: never nothing.
    const drawn =
      focused.outline !== 'none' || (focused.boxShadow !== 'none' && focused.boxShadow !== resting.boxShadow);
    expect(drawn, `no focus indicator: ${JSON.stringify(focused)} (resting ${JSON.stringify(resting)})`).toBe(
      true,
    );
    await screenshots(page, 'keyboard-console-focus');
  });

  it('says under the file editor how to leave it with the keyboard, in the egg editors’ words', async () => {
    await page.goto(`${panel.url}/server/${server.identifier}/files/edit#/server.js`);
    const content = page.locator('.cm-content');
    await content.waitFor();
    const hint = page.getByTestId('editor-keys-hint');
    await expect
      .poll(() => hint.textContent())
      .toBe('In the editor, Tab indents; press Esc, then Tab, to move on.');
    // Read with the editor by a screen reader: the text area points to the hint.
    const described = await content.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await hint.getAttribute('id')).toBe(described);

    // And it is true: Esc then Tab leaves the editor for the control after it.
    await content.focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.cm-editor') == null))
      .toBe(true);
    await screenshots(page, 'keyboard-editor-hint');
  });

  it('opens the search with Ctrl+/ on Linux as with meta+/, and names Ctrl on its button', async () => {
    await page.goto(`${panel.url}/`);
    await page.getByText('Hint World').first().waitFor();
    const button = page.getByRole('button', { name: 'Search', exact: true });
    // Chromium here runs on Linux: the tooltip names Ctrl, not ⌘.
    expect(await button.getAttribute('title')).toBe('Search (Ctrl /)');
    expect(await button.getAttribute('aria-keyshortcuts')).toBe('Meta+/ Control+/');

    for (const shortcut of ['Control+/', 'Meta+/']) {
      await fromTop(page);
      await page.keyboard.press(shortcut);
      await page.getByRole('dialog').waitFor();
      await expectFocusOn(page, 'Search term');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }

    // Typing "/" with Ctrl in a text field is the field's business. The shortcut's handler (on the
    // document) runs before this listener on the window and marks the key handled when it opens
    // the search: unmarked means it left the key alone.
    await page.goto(`${panel.url}/account`);
    const field = page.getByLabel('Current Password').first();
    await field.waitFor();
    await page.evaluate(() => {
      const seen: boolean[] = [];
      (window as unknown as { slashKeys: boolean[] }).slashKeys = seen;
      window.addEventListener('keydown', (e) => {
        if (e.key === '/') seen.push(e.defaultPrevented);
      });
    });
    await field.focus();
    await page.keyboard.press('Control+/');
    await fromTop(page);
    await page.keyboard.press('Control+/');
    await page.getByRole('dialog').waitFor();
    expect(await page.evaluate(() => (window as unknown as { slashKeys: boolean[] }).slashKeys)).toEqual([
      false,
      true,
    ]);
  });
});
