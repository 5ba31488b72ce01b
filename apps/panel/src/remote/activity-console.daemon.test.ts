import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../db/types.ts';
import {
  listServerActivity,
  startRunningServer,
  startServerWorld,
  waitUntil,
  type ServerWorld,
} from '../test-support/daemon-servers.ts';
import type { TestSocket } from '../test-support/socket.ts';

// The web console sends power actions and commands over the daemon's socket, not through the
// panel: the daemon reports them in its activity batches (reference §5.10, §8.14) and the server's
// activity list shows them under the user of the socket's token, with the browser's address. A
// power action through the client API is logged by the panel alone, once.
let world: ServerWorld;
let server: Server;
let socket: TestSocket;

const base = () => `/api/client/servers/${server.uuid_short}`;
const listed = () => listServerActivity(world.ownerClient, server);

/** The list once the daemon's batch has brought `command` (a batch goes some seconds after). */
const listedWithCommand = (command: string) =>
  waitUntil(
    `the daemon reporting "${command}"`,
    listed,
    (list) => list.some((e) => e.event === 'server:console.command' && e.properties.command === command),
    40_000,
    250,
  );

beforeAll(async () => {
  world = await startServerWorld();
  // Installed, the owner's console socket open, started through the client API (logged by the panel).
  ({ server, socket } = await startRunningServer(world, 'Console world'));
}, 240_000);

afterAll(async () => {
  socket?.close();
  await world?.close();
});

describe('console socket activity in the server activity list', () => {
  it('lists a command, a kill and a start sent over the socket under the owner, with the address', async () => {
    socket.send('send command', 'say from the web console');
    const killedAt = socket.mark();
    socket.send('set state', 'kill');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 60_000, killedAt);
    const startedAt = socket.mark();
    socket.send('set state', 'start');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 60_000, startedAt);
    socket.send('send command', 'say started again');

    const entries = await listedWithCommand('say started again');
    const owner = { ip: '127.0.0.1', actor: world.owner.uuid };
    expect(
      entries.filter((e) => e.event.startsWith('server:power.') || e.event === 'server:console.command'),
    ).toEqual([
      // The client API's start (startRunningServer), logged by the panel itself.
      { event: 'server:power.start', properties: {}, ...owner },
      { event: 'server:console.command', properties: { command: 'say from the web console' }, ...owner },
      { event: 'server:power.kill', properties: {}, ...owner },
      { event: 'server:power.start', properties: {}, ...owner },
      { event: 'server:console.command', properties: { command: 'say started again' }, ...owner },
    ]);
  }, 120_000);

  it('logs a power action through the client API once, not again from the daemon', async () => {
    const from = socket.mark();
    const res = await world.ownerClient.post(`${base()}/power`, { signal: 'kill' });
    expect(res.status, res.text).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 60_000, from);
    // Started again over the socket, then a command: once the daemon's batch has brought that
    // command, it has brought everything it recorded before (its queue keeps the order).
    const started = socket.mark();
    socket.send('set state', 'start');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 60_000, started);
    socket.send('send command', 'say marker');
    const entries = await listedWithCommand('say marker');
    expect(entries.filter((e) => e.event === 'server:power.kill')).toHaveLength(2);
    expect(entries.filter((e) => e.event === 'server:power.start')).toHaveLength(3);
    // About the server, not the account (reference §5.10): neither the socket's actions nor the
    // client API's are in the owner's account activity, so both read the same everywhere.
    const account = await world.ownerClient.get('/api/client/account/activity?per_page=100');
    expect(
      (account.body.data as { attributes: { event: string } }[])
        .map((d) => d.attributes.event)
        .filter((event) => /^server:(power|console)\./u.test(event)),
    ).toEqual([]);

    const killedAt = socket.mark();
    socket.send('set state', 'kill');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 60_000, killedAt);
  }, 120_000);
});
