import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { freeAllocation, serverBody, waitUntil } from '../../test-support/daemon-servers.ts';
import { applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { TestSocket } from '../../test-support/socket.ts';

// Issue 17, "values reach the server": a Pelican egg (PLCN_v3, YAML) whose config files use
// Pelican placeholders under `/`-prefixed paths is imported, a server is made from it and started
// on a real daemon, and the files hold the allocation's real port and the variable's value.
let panel: TestPanel;
let daemon: TestDaemon;
let owner: User;
let app: TestClient;
let client: TestClient;

const BUILT_IN = path.resolve(import.meta.dirname, '../../../../../eggs/node-game-server.json');

/** The built-in game server's install script, as a YAML literal block (it writes server.js). */
function installScript(): string {
  const egg = JSON.parse(readFileSync(BUILT_IN, 'utf8')) as { scripts: { installation: { script: string } } };
  return egg.scripts.installation.script
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}

function pelicanEgg(): string {
  return `meta:
  version: PLCN_v3
  update_url: null
name: Pelican placeholders
author: itest@example.org
uuid: 3b8c2d1e-4f5a-4b6c-9d7e-8f9a0b1c2d3e
description: ''
tags: [test]
features: []
docker_images:
  Node: talon/host-node:20
file_denylist: ''
startup_commands:
  Default: 'echo "start port={{server.allocations.default.port}} motd={{server.environment.MOTD}}" && node server.js'
  Plain: node server.js
config:
  files:
    /config/talon.yml:
      parser: yaml
      find:
        server.port: '{{server.allocations.default.port}}'
        server.ip: '{{server.allocations.default.ip}}'
        server.motd: '{{server.environment.MOTD}}'
        server.memory: '{{server.build.memory_limit}}'
    /talon.properties:
      parser: properties
      find:
        server-port: '{{server.build.default.port}}'
        max-players: '{{env.MAX_PLAYERS}}'
  startup:
    done: ')! For help, type "help"'
    userInteraction: []
  stop: stop
scripts:
  installation:
    container: ghcr.io/pterodactyl/installers:debian
    entrypoint: bash
    script: |
${installScript()}
variables:
  - name: Message of the day
    description: ''
    env_variable: MOTD
    default_value: Welcome
    user_viewable: true
    user_editable: true
    rules: [required, string, 'max:120']
    sort: 2
  - name: Maximum players
    description: ''
    env_variable: MAX_PLAYERS
    default_value: '10'
    user_viewable: true
    user_editable: true
    rules: 'required|int|between:1,500|'
    sort: 1
  - name: World name
    description: ''
    env_variable: WORLD_NAME
    default_value: world
    user_viewable: true
    user_editable: false
    rules: [required, alpha_dash]
    sort: 3
`;
}

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx, 2);
  app = await applicationClient(panel);
  owner = await panel.createUser({ password: 'hunter2hunter2' });
  client = new TestClient(panel.url);
  await client.login(owner.username, 'hunter2hunter2');
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('a Pelican egg on a real daemon', () => {
  it('imports, creates, starts, and the rewritten files and the start-up command hold the real values', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Pelican', 'test');
    const imported = await panel.ctx.services.eggs.importFile(pelicanEgg(), nest.id);
    expect(imported).toMatchObject({ action: 'imported', warnings: [] });
    const egg = imported.egg;

    const allocation = await freeAllocation(panel.ctx, daemon.node);
    const port = (
      await panel.ctx.db.db
        .selectFrom('allocations')
        .select('port')
        .where('id', '=', allocation)
        .executeTakeFirstOrThrow()
    ).port;
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation, {
        name: 'Pelican world',
        startup: JSON.parse(egg.startup_commands!)[0].command,
        environment: { MOTD: 'hello pelican', MAX_PLAYERS: '7', WORLD_NAME: 'pelican' },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.attributes.identifier;
    await waitUntil(
      'installation',
      () => client.get(`/api/client/servers/${id}`),
      (r) => r.status === 200 && r.body.attributes.status === null,
    );

    const credentials = await client.get(`/api/client/servers/${id}/websocket`);
    const socket = await TestSocket.open(credentials.body.data.socket, panel.url);
    socket.send('auth', credentials.body.data.token);
    await socket.waitFor((m) => m.event === 'auth success');
    const before = socket.mark();
    expect((await client.post(`/api/client/servers/${id}/power`, { signal: 'start' })).status).toBe(204);
    const echoed = await socket.waitFor(
      (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('start port='),
      60_000,
      before,
    );
    expect(echoed.args?.[0]).toContain(`start port=${port} motd=hello pelican`);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 60_000, before);

    const yaml = await client.get(`/api/client/servers/${id}/files/contents?file=/config/talon.yml`);
    expect(yaml.status, yaml.text).toBe(200);
    expect(yaml.text).toContain(`port: ${port}`);
    expect(yaml.text).toContain('ip: 127.0.0.1');
    expect(yaml.text).toContain('motd: hello pelican');
    expect(yaml.text).toContain('memory: 256');
    const props = await client.get(`/api/client/servers/${id}/files/contents?file=talon.properties`);
    expect(props.text).toContain(`server-port=${port}`);
    expect(props.text).toContain('max-players=7');

    const beforeStop = socket.mark();
    await client.post(`/api/client/servers/${id}/power`, { signal: 'kill' });
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 30_000, beforeStop);
    socket.close();
  }, 240_000);
});
