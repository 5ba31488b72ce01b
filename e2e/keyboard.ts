/**
 * Keyboard walks for the browser tests: Tab and Shift+Tab from the top of a page must reach every
 * control, never get stuck, and leave the page; an open dialog keeps the focus inside.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** One focus stop: a readable name, and whether it sits inside the xterm terminal. */
export interface Stop {
  id: string | null;
  name: string;
  inTerminal: boolean;
}

/**
 * Tags every element a keyboard user should be able to reach (enabled, rendered, not tabindex -1)
 * with a data-kbd id, and returns their names. The xterm helper textarea counts too: it is fine to
 * stop there, as long as the next Tab moves on.
 */
export function tagTabbables(target: Page): Promise<Stop[]> {
  return target.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';
    const stops: { id: string; name: string; inTerminal: boolean }[] = [];
    document.querySelectorAll<HTMLElement>(selector).forEach((el, i) => {
      if ((el as HTMLButtonElement).disabled || el.tabIndex < 0) return;
      // A radio group is one Tab stop (its checked radio; the arrow keys move within the group).
      const radio = el as HTMLInputElement;
      if (radio.type === 'radio' && radio.name && !radio.checked) {
        const group = document.querySelectorAll<HTMLInputElement>(
          `input[type=radio][name="${CSS.escape(radio.name)}"]`,
        );
        if ([...group].some((other) => other.checked)) return;
      }
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
export function focused(target: Page): Promise<Stop> {
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
export async function walk(target: Page, key: 'Tab' | 'Shift+Tab', limit: number): Promise<Stop[]> {
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
export function expectNoTrap(stops: Stop[]): void {
  for (let i = 1; i < stops.length; i += 1) {
    expect(
      stops[i]!.id === stops[i - 1]!.id || (stops[i]!.inTerminal && stops[i - 1]!.inTerminal),
      `focus stuck at "${stops[i]!.name}" after ${i} presses: ${stops.map((s) => s.name).join(' → ')}`,
    ).toBe(false);
  }
}

/** Every tabbable element of the page was reached by the walk. */
export function expectAllReached(tabbables: Stop[], stops: Stop[]): void {
  const reached = new Set(stops.map((s) => s.id));
  const missed = tabbables.filter((t) => !reached.has(t.id)).map((t) => t.name);
  expect(missed, `not reachable by Tab: ${missed.join(', ')}`).toEqual([]);
}

/** Starts the walk from the top of the page, as a keyboard user arriving there does. */
export async function fromTop(target: Page): Promise<void> {
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
export async function expectKeyboardWalkable(target: Page): Promise<Stop[]> {
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
export function focusInDialog(target: Page): Promise<boolean> {
  return target.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null);
}

/**
 * With a modal open, Tab and Shift+Tab cycle inside it: every press lands on a control of the
 * dialog, and every control of the dialog is reached.
 */
export async function expectFocusKeptInDialog(target: Page): Promise<void> {
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
export async function expectFocusOn(target: Page, name: string): Promise<void> {
  await expect.poll(() => focused(target).then((f) => f.name)).toBe(name);
}
