import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshots, type Panel } from './harness.ts';
import { signIn, type AppApi, type CreatedServer } from './servers.ts';
import { startWorld, type World } from './world.ts';

// Issue 17 in Chromium: a Pelican (PLCN_v3, YAML) egg imported with egg:import offers its named
// start-up commands on the server's Startup page; the choice is what the panel stores.
const owner = {
  email: 'commands-owner@example.test',
  username: 'commandsowner',
  password: 'owner-password-1',
};
const ROOT = path.resolve(import.meta.dirname, '..');

function pelicanEgg(): string {
  const builtIn = JSON.parse(readFileSync(path.join(ROOT, 'eggs/node-game-server.json'), 'utf8')) as {
    scripts: { installation: { script: string } };
  };
  const script = builtIn.scripts.installation.script
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
  return `meta:
  version: PLCN_v3
  update_url: null
name: E2E Pelican Game
author: e2e@example.org
uuid: 0f1e2d3c-4b5a-4968-8776-655443322110
description: A Pelican-format copy of the built-in game server.
features: []
docker_images:
  Node: talon/host-node:20
file_denylist: []
startup_commands:
  Default: node server.js
  'Big world': node server.js --players {{MAX_PLAYERS}}
config:
  files: {}
  startup:
    done: ')! For help, type "help"'
  stop: stop
scripts:
  installation:
    container: ghcr.io/pterodactyl/installers:debian
    entrypoint: bash
    script: |
${script}
variables:
  - { name: Maximum players, env_variable: MAX_PLAYERS, default_value: '10', user_viewable: true, user_editable: true, rules: [required, integer], sort: 1 }
  - { name: Message of the day, env_variable: MOTD, default_value: hi, user_viewable: true, user_editable: true, rules: [required, string], sort: 2 }
  - { name: World name, env_variable: WORLD_NAME, default_value: world, user_viewable: true, user_editable: false, rules: [required, alpha_dash], sort: 3 }
`;
}

let dir: string;
let world: World;
let panel: Panel;
let api: AppApi;
let page: Page;
let game: CreatedServer;

describe('named start-up commands in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'talon-e2e-eggs-'));
    const file = path.join(dir, 'egg-pelican.yaml');
    writeFileSync(file, pelicanEgg());
    world = await startWorld({ people: [owner], eggFiles: [file] });
    ({ panel, api, page } = world);
    game = await world.server({
      name: 'Pelican World',
      owner,
      egg: 'E2E Pelican Game',
      startup: 'node server.js',
    });
  });

  afterAll(async () => {
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers the commands and stores the one chosen', async () => {
    await signIn(page, panel.url, owner.username, owner.password);
    await page.goto(`${panel.url}/server/${game.identifier}/startup`);
    const select = page.getByLabel('Command', { exact: true });
    await select.waitFor();
    expect(await select.inputValue()).toBe('Default');
    expect(await select.locator('option').allTextContents()).toEqual(['Default', 'Big world']);
    await select.selectOption('Big world');
    await page.getByTestId('startup-command').getByText('node server.js --players 10').waitFor();
    await screenshots(page, 'server-startup-commands');
    const server = await api.get<{ attributes: { container: { startup_command: string } } }>(
      `/api/application/servers/${game.id}`,
    );
    expect(server.attributes.container.startup_command).toBe('node server.js --players {{MAX_PLAYERS}}');
  });
});
