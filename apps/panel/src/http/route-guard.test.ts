import { ALL_PERMISSION_KEYS } from '@talon/shared';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '../db/types.ts';
import { APPLICATION_RESOURCES } from '../modules/api-keys/api-keys.service.ts';
import { applicationClient, everyKeyOf } from '../modules/application/testing.ts';
import type { TestClient } from '../test-support/client.ts';
import {
  addSubuser,
  databaseRow,
  nodeAndEgg,
  serverRow,
  unreachableDatabaseHost,
} from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerRouteGuards, routeTable, type DeclaredRoute } from './route-guard.ts';
import { serverRoute } from './server-guard.ts';

// Walks the panel's real route table (every route the app registered, as the guard saw it) and
// replays, against each client server route, the probes an attacker would make: another user's
// server (404), a subuser who lacks exactly the declared permission (403), a suspended server
// (409). The server's node has no daemon: all of these answers must come before any daemon call,
// else the request would fail with a 5xx instead. A route added without a declaration never gets
// here: registering it throws, so the panel does not even build (the last describe proves that).

const SERVER_PREFIX = '/api/client/servers/';
const NOT_FOUND_HERE = {
  errors: [
    {
      code: 'NotFoundHttpException',
      status: '404',
      detail: 'The requested resource does not exist on this server.',
    },
  ],
};
const FORBIDDEN = {
  errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }],
};
const SUSPENDED = {
  errors: [
    {
      code: 'ServerStateConflictException',
      status: '409',
      detail: 'This server is currently suspended and the functionality requested is unavailable.',
    },
  ],
};

let panel: TestPanel;
let server: Server;
let subuser: User;
let strangerClient: TestClient;
let subuserClient: TestClient;

const db = () => panel.ctx.db.db;
const setStatus = (status: Server['status']) => panel.ctx.repositories.servers.update(server.id, { status });
const grant = (permissions: readonly string[]) =>
  db()
    .updateTable('subusers')
    .set({ permissions: JSON.stringify(permissions) })
    .where('user_id', '=', subuser.id)
    .execute();

/** A path with valid-looking values for every parameter; a new parameter must be added here. */
function concrete(url: string, values: Record<string, string>): string {
  return url.replace(/:(\w+)/gu, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no fixture value for :${name} in ${url}`);
    return value;
  });
}

/** The request an untrusted client makes: a JSON body for methods that take one. */
function send(client: TestClient, method: string, path: string) {
  return method === 'GET' || method === 'HEAD' || method === 'DELETE'
    ? client.request(method, path)
    : client.request(method, path, {});
}

const clientServerRoutes = () =>
  routeTable(panel.app).filter(
    (r) => r.url === '/api/client/servers/:server' || r.url.startsWith(SERVER_PREFIX),
  );
const applicationRoutes = () => routeTable(panel.app).filter((r) => r.url.startsWith('/api/application'));
let databaseId: number;
let backupUuid: string;
let scheduleId: number;
let taskId: number;
const label = (r: DeclaredRoute) => `${r.method} ${r.url}`;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [44610, 44613]);
  const owner = await panel.createUser({ username: 'guardowner' });
  subuser = await panel.createUser({ username: 'guardsub' });
  const stranger = await panel.createUser({ username: 'guardstranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id);
  await addSubuser(panel.ctx, server, subuser, []);
  // A database of the server (its host is never contacted: the guard answers first).
  databaseId = await databaseRow(panel.ctx, {
    serverId: server.id,
    hostId: await unreachableDatabaseHost(panel.ctx, 'guard'),
    database: 's1_guard',
    username: 'u1_guard',
  });
  const at = new Date().toISOString();
  // A backup of the server, for the `:backup` routes.
  backupUuid = crypto.randomUUID();
  await db()
    .insertInto('backups')
    .values({
      server_id: server.id,
      uuid: backupUuid,
      is_successful: 1,
      is_locked: 0,
      name: 'guard',
      ignored_files: '[]',
      disk: 'wings',
      checksum: null,
      bytes: 0,
      completed_at: at,
      deleted_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  // A schedule of the server with one task, for the `:schedule` and `:task` routes.
  scheduleId = (
    await db()
      .insertInto('schedules')
      .values({
        server_id: server.id,
        name: 'guard',
        cron_minute: '0',
        cron_hour: '0',
        cron_day_of_month: '1',
        cron_month: '1',
        cron_day_of_week: '*',
        is_active: 0,
        is_processing: 0,
        only_when_online: 0,
        last_run_at: null,
        next_run_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  taskId = (
    await db()
      .insertInto('tasks')
      .values({
        schedule_id: scheduleId,
        sequence_id: 1,
        action: 'command',
        payload: 'say guard',
        time_offset: 0,
        continue_on_failure: 0,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  strangerClient = await panel.signedIn(stranger);
  subuserClient = await panel.signedIn(subuser);
});
afterAll(async () => {
  await panel?.close();
});

describe('the client server routes in the route table', () => {
  const params = () => ({
    server: server.uuid_short,
    allocation: String(server.allocation_id),
    user: subuser.uuid,
    database: String(databaseId),
    backup: backupUuid,
    schedule: String(scheduleId),
    task: String(taskId),
  });

  it('are all there, each with a permission and a state rule', () => {
    const routes = clientServerRoutes();
    // The table is the real one: the known routes of every module are in it (HEAD beside GET).
    for (const known of [
      'GET /api/client/servers/:server',
      'HEAD /api/client/servers/:server/websocket',
      'POST /api/client/servers/:server/power',
      'POST /api/client/servers/:server/files/write',
      'DELETE /api/client/servers/:server/network/allocations/:allocation',
      'PUT /api/client/servers/:server/startup/variable',
      'POST /api/client/servers/:server/settings/reinstall',
    ]) {
      expect(routes.map(label)).toContain(known);
    }
    for (const route of routes) {
      expect(route.server, label(route)).toBeDefined();
    }
  });

  it('answer 404 to a signed-in user with no relation to the server, on every route', async () => {
    for (const route of clientServerRoutes()) {
      const res = await send(strangerClient, route.method, concrete(route.url, params()));
      expect(res.status, label(route)).toBe(404);
      if (route.method !== 'HEAD') expect(res.body, label(route)).toEqual(NOT_FOUND_HERE);
    }
  });

  it('answer 403 to a subuser holding every permission but the declared one', async () => {
    let checked = 0;
    try {
      for (const route of clientServerRoutes()) {
        const rule = route.server!;
        if (rule.permission === 'any') continue;
        // A permission that depends on the input (power's signal) is refused to a subuser holding
        // none; a fixed one is refused to a subuser holding all the others.
        const held =
          typeof rule.permission === 'string' ? ALL_PERMISSION_KEYS.filter((k) => k !== rule.permission) : [];
        await grant(held);
        const res = await send(subuserClient, route.method, concrete(route.url, params()));
        expect(res.status, label(route)).toBe(403);
        if (route.method !== 'HEAD') {
          expect(res.body.errors?.[0]?.status, label(route)).toBe('403');
          if (!rule.denied) expect(res.body, label(route)).toEqual(FORBIDDEN);
        }
        checked += 1;
      }
    } finally {
      await grant([]);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('answer 409 on a suspended server to its owner where the state rule says so', async () => {
    const owner = await panel.signedIn(
      await db().selectFrom('users').selectAll().where('id', '=', server.owner_id).executeTakeFirstOrThrow(),
    );
    await setStatus('suspended');
    try {
      for (const route of clientServerRoutes()) {
        const res = await send(owner, route.method, concrete(route.url, params()));
        if (route.server!.state === 'none') {
          expect(res.status, label(route)).toBe(200);
          continue;
        }
        expect(res.status, label(route)).toBe(409);
        if (route.method !== 'HEAD') expect(res.body, label(route)).toEqual(SUSPENDED);
      }
    } finally {
      await setStatus(null);
    }
  });
});

describe('the application routes in the route table', () => {
  const keys = new Map<string, TestClient>();
  /** An application key with every bit on every resource except `bit` on `resource`. */
  async function keyWithout(resource: string, bit: number): Promise<TestClient> {
    const id = `${resource}:${bit}`;
    let client = keys.get(id);
    if (!client) {
      const permissions = Object.fromEntries(
        APPLICATION_RESOURCES.map((r) => [r, r === resource ? 3 & ~bit : 3]),
      );
      client = await applicationClient(panel, await panel.createUser({ admin: true }), permissions);
      keys.set(id, client);
    }
    return client;
  }

  it('each declare their ACL resource (the catch-all explicitly none)', () => {
    const routes = applicationRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      expect(route.acl, label(route)).toBeDefined();
      if (route.acl === 'none') expect(route.url, label(route)).toBe('/api/application/*');
    }
  });

  it('answer 403 to an application key lacking the read bit (GET) or the write bit (others)', async () => {
    for (const route of applicationRoutes()) {
      if (route.acl === 'none' || route.acl === undefined) continue;
      const bit = route.method === 'GET' || route.method === 'HEAD' ? 1 : 2;
      const client = await keyWithout(route.acl, bit);
      const path = concrete(route.url, {
        id: '1',
        externalId: 'x',
        nest: '1',
        egg: '1',
        allocation: '1',
        db: '1',
        variable: '1',
        identifier: 'ptla_unknown00000',
        run: '00000000-0000-4000-8000-000000000000',
      });
      const res = await send(client, route.method, path);
      expect(res.status, label(route)).toBe(403);
      if (route.method !== 'HEAD') expect(res.body, label(route)).toEqual(FORBIDDEN);
    }
  });
});

describe('the session-only application routes in the route table', () => {
  const sessionRoutes = () => applicationRoutes().filter((r) => r.acl === 'session');
  const path = (r: DeclaredRoute) => concrete(r.url, { id: '1', identifier: 'ptla_unknown00000' });

  it('include the settings, API keys and overview routes', () => {
    const routes = sessionRoutes().map(label);
    for (const known of [
      'GET /api/application/settings',
      'PATCH /api/application/settings',
      'POST /api/application/settings/mail/test',
      'GET /api/application/api-keys',
      'POST /api/application/api-keys',
      'DELETE /api/application/api-keys/:identifier',
      'GET /api/application/overview',
      'POST /api/application/nodes/:id/setup-token',
    ]) {
      expect(routes).toContain(known);
    }
  });

  it('are every route of those areas: a new settings or key route cannot open itself to keys', () => {
    const sessionOnly = /^\/api\/application\/(settings|api-keys|overview)(\/|$)|\/setup-token$/u;
    const routes = applicationRoutes().filter((r) => sessionOnly.test(r.url));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of routes) expect(route.acl, label(route)).toBe('session');
  });

  it("answer 403 to a root admin's application key with every right and to their client key", async () => {
    const admin = await panel.createUser({ admin: true });
    const keys = await everyKeyOf(panel, admin);
    for (const route of sessionRoutes()) {
      for (const client of keys) {
        const res = await send(client, route.method, path(route));
        expect(res.status, label(route)).toBe(403);
        if (route.method !== 'HEAD') expect(res.body, label(route)).toEqual(FORBIDDEN);
      }
    }
  });

  it("let a root admin's session past the guard", async () => {
    const session = await panel.signedIn(await panel.createUser({ admin: true }));
    for (const route of sessionRoutes()) {
      const res = await send(session, route.method, path(route));
      // What the handler then answers depends on the route (the mail test without a mail host: 502).
      expect([401, 403, 419], label(route)).not.toContain(res.status);
    }
  });
});

describe('a declared route whose handler checks nothing itself', () => {
  it('is still refused to strangers (404), subusers without the permission (403) and on a suspended server (409)', async () => {
    // A bare app with only the guard and a stand-in for the API authentication hook (the user id
    // in a header): the handler below trusts the declaration alone, as every real route now does.
    const app = Fastify();
    registerRouteGuards(app, panel.ctx.repositories.servers);
    app.decorateRequest('actor', null);
    app.addHook('onRequest', async (req) => {
      const id = Number(req.headers['x-user-id']);
      const user = await db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      req.actor = { user, apiKey: null };
    });
    registerErrorHandling(app);
    app.post('/api/client/servers/:server/reveal', serverRoute('file.read-content'), async () => ({
      secret: 1,
    }));
    const as = (user: { id: number }) =>
      app.inject({
        method: 'POST',
        url: `/api/client/servers/${server.uuid_short}/reveal`,
        headers: { 'x-user-id': String(user.id) },
      });
    const stranger = await db()
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'guardstranger')
      .executeTakeFirstOrThrow();
    try {
      expect((await as(stranger)).statusCode).toBe(404);
      await grant(ALL_PERMISSION_KEYS.filter((k) => k !== 'file.read-content'));
      expect((await as(subuser)).statusCode).toBe(403);
      await grant(['file.read-content']);
      expect((await as(subuser)).json()).toEqual({ secret: 1 });
      await setStatus('suspended');
      expect((await as(subuser)).statusCode).toBe(409);
    } finally {
      await setStatus(null);
      await grant([]);
      await app.close();
    }
  });
});

describe('registering a route without a declaration', () => {
  const handler = async () => ({ ok: true });

  it('throws for a client server route, so the panel cannot start with it', async () => {
    const app = Fastify();
    registerRouteGuards(app, panel.ctx.repositories.servers);
    expect(() => app.get('/api/client/servers/:server/backdoor', handler)).toThrow(
      /GET \/api\/client\/servers\/:server\/backdoor declares no server access rule/u,
    );
    expect(() =>
      app.post(
        '/api/client/servers/:server/declared',
        { config: { server: { permission: 'file.read', state: 'usable' } } },
        handler,
      ),
    ).not.toThrow();
    await app.close();
  });

  it('throws for an application route', async () => {
    const app = Fastify();
    registerRouteGuards(app, panel.ctx.repositories.servers);
    expect(() => app.delete('/api/application/servers/:id/everything', handler)).toThrow(
      /DELETE \/api\/application\/servers\/:id\/everything declares no ACL resource/u,
    );
    expect(() =>
      app.get('/api/application/declared', { config: { acl: 'r_servers' } }, handler),
    ).not.toThrow();
    await app.close();
  });

  it('throws for a server route whose path names the server otherwise than :server', async () => {
    const app = Fastify();
    registerRouteGuards(app, panel.ctx.repositories.servers);
    expect(() =>
      app.get(
        '/api/client/servers/:id/x',
        { config: { server: { permission: 'any', state: 'usable' } } },
        handler,
      ),
    ).toThrow(/:server/u);
    await app.close();
  });
});
