import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, totp, totpStep, waitForNextTotpStep, type Panel } from './harness.ts';
import { signIn, terminalText, waitForStatus, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// The web console sends power actions and commands over the daemon's socket; the daemon reports
// them to the panel in its activity batches, and the server's Activity tab lists them, readable.
const owner = { email: 'audited@example.test', username: 'audited', password: 'audited-password-1' };

let world: World;
let panel: Panel;
let page: Page;
let game: CreatedServer;

async function waitForTerminal(needle: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await terminalText(page)).includes(needle)) return;
    if (Date.now() > deadline)
      throw new Error(`terminal never showed ${needle}:\n${await terminalText(page)}`);
    await page.waitForTimeout(200);
  }
}

/** The Activity tab's sentences, read again (the daemon's batch arrives some seconds later). */
async function activityLines(): Promise<string[]> {
  await page.reload();
  const list = page.getByTestId('activity-line');
  await list
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  return list.allTextContents();
}

describe('console activity in the Activity tab (Chromium, real panel and daemon)', () => {
  beforeAll(async () => {
    world = await startWorld({ people: [owner] });
    ({ panel, page } = world);
    game = await world.server({ name: 'Audited World', owner });
  });

  afterAll(() => world?.close());

  it('lists the start and the command sent from the console, by the owner, as sentences', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${game.identifier}`);
    await waitForStatus(page, panel, 'offline', 20_000);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 60_000);
    await waitForTerminal('For help, type "help"', 60_000);
    const input = page.getByLabel('Console command');
    await input.fill('say written in the audit log');
    await input.press('Enter');
    await waitForTerminal('written in the audit log');

    await page.getByRole('link', { name: 'Activity', exact: true }).first().click();
    await page.waitForURL(`${panel.url}/server/${game.identifier}/activity`);
    await expect
      .poll(activityLines, { timeout: 60_000, interval: 1_000 })
      .toContain('audited ran "say written in the audit log" in the console');
    const lines = await activityLines();
    expect(lines).toContain('audited started the server');
    expect(lines.join('\n')).not.toMatch(/[{}]/u);
    // The row names the address the command came from (the owner may see it).
    const row = page.getByTestId('activity-row').filter({ hasText: 'say written in the audit log' });
    await expect(row.textContent()).resolves.toContain('IP 127.0.0.1');
    await screenshots(page, 'activity-console');

    await page.goto(`${panel.url}/server/${game.identifier}`);
    await waitForStatus(page, panel, 'running', 20_000);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
  }, 240_000);

  it("reads a two-factor sign-in and a wrong code in the account's activity as what they were", async () => {
    await page.goto(`${panel.url}/account`);
    await page.getByRole('button', { name: 'Enable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable Two-Factor' });
    const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
    const enabledAt = totpStep();
    await dialog.getByLabel('Authentication Code').fill(totp(secret));
    await dialog.getByRole('button', { name: 'Enable Two-Factor' }).click();
    await page
      .getByRole('dialog', { name: 'Two-factor authentication enabled' })
      .getByRole('button', { name: 'Done' })
      .click();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${panel.url}/auth/login`);
    await page.getByLabel('Username or Email').fill(owner.username);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${panel.url}/auth/login/checkpoint`);
    await waitForNextTotpStep(enabledAt);
    const code = totp(secret);
    await page.getByLabel('Authentication Code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('The two-factor authentication token was invalid.').waitFor();
    await page.getByLabel('Authentication Code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${panel.url}/`);

    await page.goto(`${panel.url}/account/activity`);
    const lines = page.getByTestId('activity-line');
    await lines.first().waitFor();
    const text = await lines.allTextContents();
    expect(text[0]).toBe('audited signed in with a two-factor code');
    expect(text[1]).toBe('Someone entered the right password for audited but a wrong two-factor code');
    expect(text.join('\n')).not.toContain('was asked for a two-factor code');
    await screenshots(page, 'activity-two-factor');
  }, 120_000);
});
