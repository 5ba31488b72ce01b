import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { AppContext } from '../context.ts';
import type { Egg, Node, Server, User } from '../db/types.ts';
import type { TestClient } from './client.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';
import { applicationClient, gameServerEgg, serverRow } from './fixtures.ts';
import { startTestPanel, type TestPanel } from './panel.ts';
import { TestSocket } from './socket.ts';

// Servers on a real test daemon, for the panel tests that go through one.

/**
 * Reads until `ok` holds (polling, not a fixed pause) and returns the value; after `ms` it fails
 * with the last value read, so a hung daemon shows what it was doing.
 */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 60_000,
  every = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The id of the first allocation of `node` no server holds. */
export async function freeAllocation(ctx: AppContext, node: Pick<Node, 'id'>): Promise<number> {
  const row = await ctx.db.db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', node.id)
    .where('server_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The body of POST /api/application/servers for a small server of the built-in game-server egg on
 * `allocation`; `extra` overrides any field (e.g. name, skip_scripts).
 */
export function serverBody(
  owner: { id: number },
  egg: Pick<Egg, 'id'>,
  allocation: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Integration world',
    user: owner.id,
    egg: egg.id,
    docker_image: 'talon/host-node:20',
    startup: 'node server.js',
    environment: { MAX_PLAYERS: '4', MOTD: 'hello there', WORLD_NAME: 'itest' },
    limits: { memory: 256, swap: 0, disk: 512, io: 500, cpu: 100 },
    feature_limits: { databases: 0, allocations: 1, backups: 0 },
    allocation: { default: allocation },
    ...extra,
  };
}

/**
 * A server row (no install script) that the daemon learns about through its normal creation call,
 * and its directory on the daemon, made sure to exist for tests that put files there directly.
 */
export async function daemonServerRow(
  panel: TestPanel,
  daemon: TestDaemon,
  egg: Egg,
  ownerId: number,
): Promise<{ server: Server; root: string }> {
  const server = await serverRow(panel.ctx, daemon.node, egg, ownerId, { skip_scripts: 1 });
  await panel.ctx.services.servers.daemonClient.createServer(daemon.node, server.uuid, false);
  const root = path.join(daemon.node.daemon_base, server.uuid);
  // The daemon makes the directory itself a moment after answering; should it not within 10 s, the
  // test makes it, so the tests fail on what they check rather than here.
  await waitUntil(
    'the server directory',
    async () => existsSync(root),
    (exists) => exists,
    10_000,
  ).catch(() => undefined);
  mkdirSync(root, { recursive: true });
  return { server, root };
}

/** A panel, a real daemon, an application API client and a signed-in user to own servers. */
export interface PanelWithDaemon {
  panel: TestPanel;
  daemon: TestDaemon;
  app: TestClient;
  owner: User;
  ownerClient: TestClient;
  close: () => Promise<void>;
}

type PanelAndDaemonOptions = {
  env?: Record<string, string>;
  allocations?: number;
  daemonApi?: Record<string, unknown>;
  owner?: Parameters<TestPanel['createUser']>[0];
};

/** A panel (optional env), a daemon (default 5 allocations) and a signed-in owner; closed together. */
async function startPanelAndDaemon(opts: PanelAndDaemonOptions): Promise<Omit<PanelWithDaemon, 'app'>> {
  const panel = await startTestPanel(opts.env);
  let daemon: TestDaemon | undefined;
  try {
    daemon = await startTestDaemon(panel.ctx, opts.allocations ?? 5, opts.daemonApi ?? {});
    const owner = await panel.createUser(opts.owner);
    const running = daemon;
    return {
      panel,
      daemon,
      owner,
      ownerClient: await panel.signedIn(owner),
      close: async () => {
        await running.stop();
        await panel.close();
      },
    };
  } catch (err) {
    await daemon?.stop();
    await panel.close();
    throw err;
  }
}

/** Starts a panel and a daemon with `allocations` free allocations; the tests make their servers. */
export async function startPanelWithDaemon(allocations: number): Promise<PanelWithDaemon> {
  const started = await startPanelAndDaemon({ allocations });
  try {
    return { ...started, app: await applicationClient(started.panel) };
  } catch (err) {
    await started.close();
    throw err;
  }
}

/** A panel, a real daemon and one server on it with its owner: what most daemon-backed tests stand up. */
export interface ServerWorld {
  panel: TestPanel;
  daemon: TestDaemon;
  egg: Egg;
  owner: User;
  ownerClient: TestClient;
  server: Server;
  /** the server's directory on the daemon */
  root: string;
  /** activity entries with `event`, their properties parsed, oldest first */
  events: (event: string) => Promise<unknown[]>;
  close: () => Promise<void>;
}

/**
 * Starts a panel (optional env), a daemon (optional allocations and `api` keys) and a server owned
 * by a new user (optional password, for SFTP). One per test file: its tests share it.
 */
export async function startServerWorld(opts: PanelAndDaemonOptions = {}): Promise<ServerWorld> {
  const started = await startPanelAndDaemon(opts);
  const { panel, daemon, owner } = started;
  try {
    const egg = await gameServerEgg(panel.ctx);
    const { server, root } = await daemonServerRow(panel, daemon, egg, owner.id);
    return {
      ...started,
      egg,
      server,
      root,
      events: async (event) =>
        (
          await panel.ctx.db.db
            .selectFrom('activity_logs')
            .select('properties')
            .where('event', '=', event)
            .orderBy('id')
            .execute()
        ).map((e) => JSON.parse(e.properties) as unknown),
    };
  } catch (err) {
    await started.close();
    throw err;
  }
}

/**
 * Creates a second server of the world's egg through the application API, waits for its
 * installation, opens the owner's console socket and starts the server: resolves once it is
 * running, with the socket still open (the caller closes it).
 */
export async function startRunningServer(
  world: ServerWorld,
  name: string,
): Promise<{ server: Server; socket: TestSocket }> {
  const { panel, daemon, owner, ownerClient } = world;
  const app = await applicationClient(panel);
  const created = await app.post(
    '/api/application/servers',
    serverBody(owner, world.egg, await freeAllocation(panel.ctx, daemon.node), { name }),
  );
  expect(created.status, created.text).toBe(201);
  const server = (await panel.ctx.repositories.servers.findByIdentifier(created.body.attributes.identifier))!;
  const base = `/api/client/servers/${server.uuid_short}`;
  await waitUntil(
    'the installation',
    () => ownerClient.get(base),
    (r) => r.body.attributes.status === null,
    120_000,
  );
  const { token, socket: socketUrl } = (await ownerClient.get(`${base}/websocket`)).body.data;
  const socket = await TestSocket.open(socketUrl, panel.url);
  socket.send('auth', token);
  await socket.waitFor((m) => m.event === 'auth success');
  const from = socket.mark();
  expect((await ownerClient.post(`${base}/power`, { signal: 'start' })).status).toBe(204);
  await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 60_000, from);
  return { server, socket };
}

/** One entry of a server's activity list as the client API answers it. */
export type ListedActivity = {
  event: string;
  ip: string | null;
  properties: Record<string, unknown>;
  actor: string | null;
};

/** The server's activity as `client` reads it (`GET …/activity?include=actor`, 100 entries). */
export async function listServerActivity(
  client: TestClient,
  server: Pick<Server, 'uuid_short'>,
): Promise<ListedActivity[]> {
  const res = await client.get(
    `/api/client/servers/${server.uuid_short}/activity?per_page=100&include=actor`,
  );
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { attributes: Record<string, any> }[]).map(({ attributes: a }) => ({
    event: a.event,
    ip: a.ip,
    properties: a.properties,
    actor: a.relationships.actor.attributes?.uuid ?? null,
  }));
}
