import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import type { TestDaemon } from '../../test-support/daemon.ts';
import {
  freeAllocation,
  type PanelWithDaemon,
  startPanelWithDaemon,
  waitUntil,
} from '../../test-support/daemon-servers.ts';
import { builtInEgg } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';
import { TestSocket } from '../../test-support/socket.ts';

// PATCH /api/application/servers/{id}/build on a running server: the panel syncs the daemon, and
// the daemon (a real process) applies the lowered memory limit to the real server process at once.
let world: PanelWithDaemon;
let panel: TestPanel;
let daemon: TestDaemon;
let app: TestClient;
let owner: User;
let ownerClient: TestClient;
let egg: Egg;

const MIB = 1024 * 1024;

/** A server that takes memory 8 MiB at a time up to 120 MiB, says so, then holds it. */
const HOG_JS = String.raw`
'use strict';
const held = [];
const step = () => {
  held.push(Buffer.alloc(8 * 1024 * 1024, 1));
  console.log('holding ' + held.length * 8 + ' MiB');
  if (held.length * 8 < 120) setTimeout(step, 10);
  else console.log('App ready on port ' + process.env.SERVER_PORT);
};
step();
setInterval(() => undefined, 60_000);
process.on('SIGINT', () => process.exit(0));
`;

beforeAll(async () => {
  world = await startPanelWithDaemon(2);
  ({ panel, daemon, app, owner, ownerClient } = world);
  egg = await builtInEgg(panel.ctx, 'Generic Node.js App');
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const consoleLine = (socket: TestSocket, text: string, from: number) =>
  socket.waitFor((m) => m.event === 'console output' && (m.args?.[0] ?? '').includes(text), 30_000, from);

describe('PATCH /api/application/servers/{id}/build on a running server', () => {
  it('makes the daemon enforce a lowered memory limit: the server is stopped and the console says why', async () => {
    const allocation = await freeAllocation(panel.ctx, daemon.node);
    const created = await app.post('/api/application/servers', {
      name: 'Memory hog',
      user: owner.id,
      egg: egg.id,
      docker_image: 'talon/host-node:20',
      startup: 'node {{MAIN_FILE}}',
      environment: { MAIN_FILE: 'hog.js', NODE_ARGS: '' },
      limits: { memory: 512, swap: 0, disk: 512, io: 500, cpu: 0 },
      feature_limits: { databases: 0, allocations: 1, backups: 0 },
      allocation: { default: allocation },
      skip_scripts: true,
    });
    expect(created.status, created.text).toBe(201);
    const { id, identifier } = created.body.attributes as { id: number; identifier: string };
    const base = `/api/client/servers/${identifier}`;
    await waitUntil(
      'the daemon to set the server up',
      () => ownerClient.get(base),
      (r) => r.status === 200 && r.body.attributes.status === null,
    );
    expect((await ownerClient.postRaw(`${base}/files/write?file=hog.js`, HOG_JS)).status).toBe(204);

    const { token, socket: url } = (await ownerClient.get(`${base}/websocket`)).body.data;
    const socket = await TestSocket.open(url, panel.url);
    socket.send('auth', token);
    await socket.waitFor((m) => m.event === 'auth success');
    const start = socket.mark();
    expect((await ownerClient.post(`${base}/power`, { signal: 'start' })).status).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 30_000, start);
    await consoleLine(socket, 'holding 120 MiB', start);
    await waitUntil(
      'the daemon to measure the memory held',
      () => ownerClient.get(`${base}/resources`),
      (r) => r.body.attributes?.resources?.memory_bytes > 120 * MIB,
      30_000,
    );

    const change = socket.mark();
    const build = await app.request('PATCH', `/api/application/servers/${id}/build`, {
      allocation,
      memory: 96,
      swap: 0,
      disk: 512,
      io: 500,
      cpu: 0,
      feature_limits: { databases: 0, allocations: 1, backups: 0 },
    });
    expect(build.status, build.text).toBe(200);
    expect(build.body.attributes.limits.memory).toBe(96);

    await consoleLine(
      socket,
      'The server was stopped because it needed more memory than its limit of 96 MiB.',
      change,
    );
    await consoleLine(socket, 'Out of memory: true', change);
    // Crash detection starts it once more, under the new limit it cannot fit in either; the second
    // crash within the crash timeout leaves it stopped.
    await consoleLine(socket, 'Aborting automatic restart', change);
    const stopped = await waitUntil(
      'the server to stay stopped',
      () => ownerClient.get(`${base}/resources`),
      (r) => r.body.attributes?.current_state === 'offline',
      30_000,
    );
    expect(stopped.body.attributes.resources.memory_bytes).toBe(0);
    // A stats frame of the tick before the daemon applied the change may still carry the old limit;
    // from the moment the daemon says it stopped the server for the new one, every frame has it.
    const afterChange = socket.messages.slice(change);
    const limitsFrom = (messages: typeof afterChange) =>
      messages
        .filter((m) => m.event === 'stats')
        .map((m) => (JSON.parse(m.args![0]!) as { memory_limit_bytes: number }).memory_limit_bytes);
    expect(limitsFrom(afterChange).length).toBeGreaterThan(0);
    const said = afterChange.findIndex(
      (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('its limit of 96 MiB'),
    );
    expect(limitsFrom(afterChange.slice(said)).every((l) => l === 96 * MIB)).toBe(true);
    socket.close();
  });
});
