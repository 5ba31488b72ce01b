import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDockerEngine, type DockerEngine } from '../apps/daemon/src/test-support/docker-engine.ts';
import {
  eggId,
  signIn,
  terminalText,
  userId,
  waitForStatus,
  createServer,
  waitInstalled,
} from './servers.ts';
import { startWorld, type World } from './world.ts';

// Issue 25: the server area works the same when the local node runs servers as containers
// (LOCAL_RUNTIME=docker). A private dockerd (or TEST_DOCKER_HOST), a busybox image under the name
// the egg uses, the panel's local daemon on it; the owner uses the console, the files and a backup.

const EGG = path.resolve(
  import.meta.dirname,
  '../packages/shared/test-fixtures/eggs/egg-test/egg-test-passes.json',
);
// A registry on a loopback port where nothing listens: the daemon's pull fails at once, without a
// lookup off 127.0.0.0/8, and the copy imported here is used.
const IMAGE = '127.0.0.1:9/talon-test/busybox:egg-test';
const owner = {
  email: 'docker-owner@example.test',
  username: 'dockerowner',
  password: 'docker-owner-pass-1',
};

let engine: DockerEngine;
let world: World;
let identifier = '';
let uuid = '';

beforeAll(async () => {
  engine = await startDockerEngine();
  await engine.importBusybox(IMAGE);
  world = await startWorld({
    people: [owner],
    env: { LOCAL_RUNTIME: 'docker', DOCKER_HOST: engine.host },
    eggFiles: [EGG],
  });
  const server = await createServer(world.api, {
    name: 'Container World',
    user: await userId(world.api, owner.username),
    egg: await eggId(world.api, 'Egg Test: Passes'),
    image: IMAGE,
    startup: 'sh server.sh',
    environment: { GREETING: 'from-a-container' },
  });
  await waitInstalled(world.api, server.id);
  identifier = server.identifier;
  uuid = server.uuid;
  const db = new Database(path.join(world.panel.dataDir, 'panel.sqlite'));
  try {
    db.prepare('UPDATE servers SET backup_limit = 1 WHERE id = ?').run(server.id);
  } finally {
    db.close();
  }
  await signIn(world.page, world.panel.url, owner.username, owner.password);
}, 240_000);

afterAll(async () => {
  await world?.close();
  // A daemon that stops leaves its containers running (as Wings does): remove them with the engine.
  if (engine) {
    for (const c of await engine.docker.listContainers({ all: true }))
      await engine.docker.getContainer(c.Id).remove({ force: true });
    await engine.stop();
  }
});

describe('the server area on a Docker node', () => {
  it('console: start, a command round trip, stop, with the server in its container', async () => {
    const { page, panel } = world;
    await page.goto(`${panel.url}/server/${identifier}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await waitForStatus(page, panel, 'running', 90_000);
    await expect.poll(() => terminalText(page)).toContain('Greeting: from-a-container');
    // The pull went to the loopback registry only, and the imported copy was used.
    // (xterm wraps long lines: read the text without its line breaks)
    expect((await terminalText(page)).replaceAll('\n', '')).toContain(
      'connect: connection refused); using the copy of 127.0.0.1:9/talon-test/busybox:egg-test',
    );
    // The game runs in a container named by the server's uuid.
    const container = await engine.docker.getContainer(uuid).inspect();
    expect(container.State.Running).toBe(true);
    expect(container.Config.Image).toBe(IMAGE);

    const input = page.getByLabel('Console command');
    await input.fill('hello-container');
    await input.press('Enter');
    await expect.poll(() => terminalText(page)).toContain('Unknown command: hello-container');

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await waitForStatus(page, panel, 'offline', 60_000);
    await expect.poll(() => terminalText(page)).toContain('Saving and quitting');
  });

  it('files: the file manager lists what the installer wrote and creates a folder', async () => {
    const { page, panel } = world;
    await page.goto(`${panel.url}/server/${identifier}/files`);
    await page.getByTestId('file-row').filter({ hasText: 'server.sh' }).waitFor();
    await page.getByRole('button', { name: 'Create Directory' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Directory' });
    await dialog.getByLabel('Directory Name').fill('maps');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('file-row').filter({ hasText: 'maps' }).waitFor();
  });

  it('backups: a backup of the container server is made and listed with its checksum', async () => {
    const { page, panel } = world;
    await page.goto(`${panel.url}/server/${identifier}`);
    await page.getByTestId('server-tabs').getByRole('link', { name: 'Backups', exact: true }).click();
    await page.getByRole('button', { name: 'Create backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create backup' });
    await dialog.getByLabel('Name').fill('Container backup');
    await dialog.getByRole('button', { name: 'Start backup' }).click();
    const row = page.locator('li[data-testid^="backup-"]').filter({ hasText: 'Container backup' });
    await row.getByTestId('backup-checksum').waitFor({ timeout: 120_000 });
    await expect(row.getByTestId('backup-checksum').textContent()).resolves.toMatch(/^sha1:[0-9a-f]{40}$/);
  });

  it('the egg test runner passes the egg on the Docker node: its throwaway container comes and goes', async () => {
    const before = (await engine.docker.listContainers({ all: true })).length;
    const egg = await eggId(world.api, 'Egg Test: Passes');
    const started = await world.api.post<{ attributes: { id: string } }>('/api/application/egg-tests', {
      egg,
      timeout: 60,
    });
    let run: { status: string; steps: { name: string; status: string; message: string | null }[] };
    const deadline = Date.now() + 120_000;
    do {
      await new Promise((r) => setTimeout(r, 250));
      run = (
        await world.api.get<{ attributes: typeof run }>(`/api/application/egg-tests/${started.attributes.id}`)
      ).attributes;
    } while (run.status === 'running' && Date.now() < deadline);
    expect(run.status, JSON.stringify(run.steps)).toBe('passed');
    expect(run.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    // Removed with its server: the engine holds as many containers as before the test.
    expect((await engine.docker.listContainers({ all: true })).length).toBe(before);
  });
});
