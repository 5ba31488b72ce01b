import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots, SCREENSHOTS } from './harness.ts';
import { eggId, signIn } from './servers.ts';
import { startWorld, type World } from './world.ts';

// Issue 25: the admin egg page's Test button runs the egg test runner on the panel's local daemon
// and shows each step live (a spinner on the running one) and the verdict. The eggs are the
// runner's own fixtures (packages/shared/test-fixtures/eggs/egg-test).

const FIXTURES = path.resolve(import.meta.dirname, '../packages/shared/test-fixtures/eggs/egg-test');

let world: World;

beforeAll(async () => {
  world = await startWorld({
    people: [],
    eggFiles: [
      path.join(FIXTURES, 'egg-test-passes.json'),
      path.join(FIXTURES, 'egg-test-install-fails.json'),
    ],
  });
  await signIn(world.page, world.panel.url, world.panel.admin.username, world.panel.admin.password);
});

afterAll(async () => {
  await world?.close();
});

async function openEgg(name: string): Promise<void> {
  const id = await eggId(world.api, name);
  await world.page.goto(`${world.panel.url}/admin/nests/egg/${id}`);
  await world.page.getByRole('heading', { name }).waitFor();
}

describe('the Test button of the admin egg page', () => {
  it('runs a passing egg: the steps go by one after another and the verdict says it passed', async () => {
    const { page } = world;
    await openEgg('Egg Test: Passes');
    await page.getByRole('button', { name: 'Test the egg Egg Test: Passes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test Egg Test: Passes' });
    await expect.poll(() => dialog.getByLabel('Greeting GREETING').inputValue()).toBe('hello');
    await dialog.getByLabel('Greeting GREETING').fill('from-the-browser');
    await dialog.getByLabel('Node').selectOption({ label: 'Local' });
    await screenshots(page, 'egg-test-form');

    await dialog.getByRole('button', { name: 'Start test' }).click();
    // The first frames show a step at work, with its spinner.
    await expect
      .poll(() => dialog.locator('[data-testid^="egg-test-step-"][data-status="running"]').count(), {
        timeout: 10_000,
        interval: 50,
      })
      .toBe(1);
    await expect(dialog.locator('[data-status="running"] [role="status"]').count()).resolves.toBe(1);

    const verdict = dialog.getByTestId('egg-test-verdict');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.textContent()).toBe('Passed: every step passed.');
    for (const step of ['create', 'install', 'start', 'stop', 'remove']) {
      expect(await dialog.getByTestId(`egg-test-step-${step}`).getAttribute('data-status')).toBe('passed');
    }
    // The start step's console lines, folded under "Console lines", carry the value typed above.
    const start = dialog.getByTestId('egg-test-step-start');
    await start.getByText('Console lines').click();
    await expect.poll(() => start.locator('pre').textContent()).toContain('Greeting: from-the-browser');
    await screenshots(page, 'egg-test-passed');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('runs an egg whose install fails: the install step shows its lines, the rest is skipped, the server removed', async () => {
    const { page } = world;
    await openEgg('Egg Test: Install Fails');
    await page.getByRole('button', { name: 'Test the egg Egg Test: Install Fails' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test Egg Test: Install Fails' });
    await dialog.getByRole('button', { name: 'Start test' }).click();
    const verdict = dialog.getByTestId('egg-test-verdict');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.textContent()).toBe(
      'Failed at "Install": The install script failed: see its last lines.',
    );
    const install = dialog.getByTestId('egg-test-step-install');
    expect(await install.getAttribute('data-status')).toBe('failed');
    expect(await install.locator('pre').textContent()).toContain('The download failed');
    expect(await dialog.getByTestId('egg-test-step-start').getAttribute('data-status')).toBe('skipped');
    expect(await dialog.getByTestId('egg-test-step-stop').getAttribute('data-status')).toBe('skipped');
    expect(await dialog.getByTestId('egg-test-step-remove').getAttribute('data-status')).toBe('passed');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await screenshots(page, 'egg-test-failed');
    // Nothing is left behind: the admin's server list is empty.
    const servers = await world.api.get<{ data: unknown[] }>('/api/application/servers');
    expect(servers.data).toEqual([]);
  });

  it('shows a 422 in words and starts nothing when a variable is refused', async () => {
    const { page } = world;
    await openEgg('Egg Test: Passes');
    await page.getByRole('button', { name: 'Test the egg Egg Test: Passes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test Egg Test: Passes' });
    await dialog.getByLabel('Greeting GREETING').fill('');
    await dialog.getByRole('button', { name: 'Start test' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe('The Greeting variable field is required.');
    expect(await dialog.locator('[data-testid^="egg-test-step-"]').count()).toBe(0);
  });
});
