import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import type { TestDaemon } from '../../test-support/daemon.ts';
import {
  type PanelWithDaemon,
  serverBody,
  startPanelWithDaemon,
  waitUntil,
} from '../../test-support/daemon-servers.ts';
import { applicationClient, builtInEgg, gameServerEgg } from '../../test-support/fixtures.ts';
import type { TestPanel } from '../../test-support/panel.ts';
import { TestSocket } from '../../test-support/socket.ts';

// What the admin server view does besides the WHMCS flow (servers.application.test.ts): create on
// chosen allocations, start on completion, skip the install script, change the egg, the allocation
// rules of PATCH build, reinstall, and a forced delete while the daemon is down. Real daemon.
let world: PanelWithDaemon;
let panel: TestPanel;
let daemon: TestDaemon;
let app: TestClient;
let owner: User;
let ownerClient: TestClient;
let egg: Egg;
let appEgg: Egg;

beforeAll(async () => {
  world = await startPanelWithDaemon(20);
  ({ panel, daemon, app, owner, ownerClient } = world);
  egg = await gameServerEgg(panel.ctx);
  appEgg = await builtInEgg(panel.ctx, 'Generic Node.js App');
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** Free allocations of the daemon's node, in id order. */
async function freeAllocations(n: number): Promise<number[]> {
  const rows = await panel.ctx.db.db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', daemon.node.id)
    .where('server_id', 'is', null)
    .orderBy('id')
    .limit(n)
    .execute();
  return rows.map((r) => r.id);
}

const assignedTo = async (serverId: number) =>
  (
    await panel.ctx.db.db
      .selectFrom('allocations')
      .select('id')
      .where('server_id', '=', serverId)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);

const serverCount = async () =>
  Number(
    (
      await panel.ctx.db.db
        .selectFrom('servers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The client API view of a server once the daemon has finished installing it. */
const installed = (identifier: string) =>
  waitUntil(
    'installation',
    () => ownerClient.get(`/api/client/servers/${identifier}`),
    (r) => r.status === 200 && r.body.attributes.status === null,
  );

describe('POST /api/application/servers on chosen allocations', () => {
  it('assigns the default and additional allocations, installs and starts on completion', async () => {
    const [primary, extra] = await freeAllocations(2);
    const created = await app.post(
      '/api/application/servers?include=allocations',
      serverBody(owner, egg, primary!, {
        name: 'Starts itself',
        allocation: { default: primary, additional: [extra] },
        start_on_completion: true,
      }),
    );
    expect(created.status, created.text).toBe(201);
    const attrs = created.body.attributes;
    expect(attrs.allocation).toBe(primary);
    expect(attrs.relationships.allocations.data.map((a: any) => a.attributes.id)).toEqual([primary, extra]);
    expect(await assignedTo(attrs.id)).toEqual([primary, extra]);
    await installed(attrs.identifier);
    const running = await waitUntil(
      'the start after installation',
      () => ownerClient.get(`/api/client/servers/${attrs.identifier}/resources`),
      (r) => r.body.attributes?.current_state === 'running',
    );
    expect(running.status).toBe(200);
    expect(
      (await ownerClient.post(`/api/client/servers/${attrs.identifier}/power`, { signal: 'kill' })).status,
    ).toBe(204);
  });

  it('refuses allocations that are taken or unknown, per field, and creates nothing', async () => {
    const taken = (
      await panel.ctx.db.db
        .selectFrom('allocations')
        .select('id')
        .where('server_id', 'is not', null)
        .executeTakeFirstOrThrow()
    ).id;
    const [free] = await freeAllocations(1);
    const before = await serverCount();
    const takenDefault = await app.post('/api/application/servers', serverBody(owner, egg, taken));
    expect(takenDefault.status).toBe(422);
    expect(firstError(takenDefault)).toMatchObject({
      detail: 'The selected allocation.default is invalid.',
      meta: { source_field: 'allocation.default' },
    });
    const takenExtra = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, free!, { allocation: { default: free, additional: [999_999] } }),
    );
    expect(takenExtra.status).toBe(422);
    expect(firstError(takenExtra).meta).toMatchObject({ source_field: 'allocation.additional.0' });
    expect(await serverCount()).toBe(before);
    const stillFree = await panel.ctx.db.db
      .selectFrom('allocations')
      .select('server_id')
      .where('id', '=', free!)
      .executeTakeFirstOrThrow();
    expect(stillFree.server_id).toBeNull();
  });

  it('skips the install script with skip_scripts', async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'No script', skip_scripts: true }),
    );
    expect(created.status, created.text).toBe(201);
    await installed(created.body.attributes.identifier);
    // The egg's script writes server.js; skipped, the directory stays empty.
    const root = path.join(daemon.node.daemon_base, created.body.attributes.uuid);
    expect(existsSync(path.join(root, 'server.js'))).toBe(false);
    const files = await ownerClient.get(
      `/api/client/servers/${created.body.attributes.identifier}/files/list?directory=/`,
    );
    expect(files.status).toBe(200);
    expect(files.body.data).toEqual([]);
  });
});

describe('POST /api/application/servers with an allocation named twice', () => {
  it('assigns each allocation once', async () => {
    const [primary, extra] = await freeAllocations(2);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, primary!, {
        name: 'Named twice',
        skip_scripts: true,
        allocation: { default: primary, additional: [extra, extra, primary] },
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(await assignedTo(created.body.attributes.id as number)).toEqual([primary, extra]);
  });
});

describe('POST /api/application/servers with deploy', () => {
  const deployBody = (deploy: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const { allocation: _allocation, ...rest } = serverBody(owner, egg, 0, { skip_scripts: true, ...extra });
    return { ...rest, deploy: { locations: [], dedicated_ip: false, port_range: [], ...deploy } };
  };

  it('picks a port in port_range, in the given locations, on an IP of its own with dedicated_ip', async () => {
    const [wanted] = await freeAllocations(1);
    const port = (
      await panel.ctx.db.db
        .selectFrom('allocations')
        .select('port')
        .where('id', '=', wanted!)
        .executeTakeFirstOrThrow()
    ).port;
    const inRange = await app.post(
      '/api/application/servers?include=allocations',
      deployBody({ port_range: [`${port}`], locations: [daemon.node.location_id] }, { name: 'By port' }),
    );
    expect(inRange.status, inRange.text).toBe(201);
    expect(inRange.body.attributes.allocation).toBe(wanted);

    // Every allocation of 127.0.0.1 shares its IP with servers now: a dedicated IP must be another.
    const noIp = await app.post('/api/application/servers', deployBody({ dedicated_ip: true }));
    expect(firstError(noIp).code).toBe('NoViableAllocationException');
    const at = new Date().toISOString();
    await panel.ctx.db.db
      .insertInto('allocations')
      .values({
        node_id: daemon.node.id,
        ip: '127.0.0.2',
        port: 47_001,
        ip_alias: null,
        server_id: null,
        notes: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const dedicated = await app.post(
      '/api/application/servers?include=allocations',
      deployBody({ dedicated_ip: true }, { name: 'Own address' }),
    );
    expect(dedicated.status, dedicated.text).toBe(201);
    expect(dedicated.body.attributes.relationships.allocations.data[0].attributes).toMatchObject({
      ip: '127.0.0.2',
      port: 47_001,
    });
    // The second dedicated deployment has no IP left to itself.
    const again = await app.post('/api/application/servers', deployBody({ dedicated_ip: true }));
    expect(firstError(again).code).toBe('NoViableAllocationException');
  });

  it('refuses other locations, ranges over 1000 ports and bad port entries, creating nothing', async () => {
    const before = await serverCount();
    const elsewhere = await app.post(
      '/api/application/servers',
      deployBody({ locations: [daemon.node.location_id + 1000] }),
    );
    expectError(
      elsewhere,
      400,
      'NoViableNodeException',
      'No nodes satisfying the requirements specified for automatic deployment could be found.',
    );
    expectError(
      await app.post('/api/application/servers', deployBody({ port_range: ['30000-31001'] })),
      400,
      'DisplayException',
      'Adding more than 1000 ports in a single range at once is not supported.',
    );
    const bad = await app.post('/api/application/servers', deployBody({ port_range: ['lots'] }));
    expect(bad.status).toBe(400);
    const noFlag = await app.post('/api/application/servers', {
      ...deployBody({}),
      deploy: { locations: [], port_range: [] },
    });
    expect(noFlag.status).toBe(422);
    expect(firstError(noFlag).meta).toMatchObject({ source_field: 'deploy.dedicated_ip' });
    expect(await serverCount()).toBe(before);
  });
});

describe('POST /api/application/servers/{id}/suspend on a running server', () => {
  it("has the daemon stop it the egg's way; after unsuspending it starts again", async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'Running when suspended' }),
    );
    const { id, identifier } = created.body.attributes as { id: number; identifier: string };
    await installed(identifier);
    const base = `/api/client/servers/${identifier}`;
    const { token, socket: url } = (await ownerClient.get(`${base}/websocket`)).body.data;
    const socket = await TestSocket.open(url, panel.url);
    socket.send('auth', token);
    await socket.waitFor((m) => m.event === 'auth success');
    const start = socket.mark();
    expect((await ownerClient.post(`${base}/power`, { signal: 'start' })).status).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 30_000, start);

    const suspend = socket.mark();
    expect((await app.post(`/api/application/servers/${id}/suspend`)).status).toBe(204);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'stopping', 30_000, suspend);
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 30_000, suspend);
    // Stopped by its egg's stop command (the game saves its world), not killed, and not restarted.
    expect(
      socket.messages
        .slice(suspend)
        .some(
          (m) =>
            m.event === 'console output' &&
            (m.args?.[0] ?? '').includes('Stopping the server (stop command)'),
        ),
    ).toBe(true);
    expect(
      socket.messages
        .slice(suspend)
        .some((m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('crashed state')),
    ).toBe(false);
    expect((await ownerClient.post(`${base}/power`, { signal: 'start' })).status).toBe(409);
    socket.close();

    expect((await app.post(`/api/application/servers/${id}/unsuspend`)).status).toBe(204);
    expect((await app.get(`/api/application/servers/${id}`)).body.attributes).toMatchObject({
      status: null,
      suspended: false,
    });
    expect((await ownerClient.post(`${base}/power`, { signal: 'start' })).status).toBe(204);
    await waitUntil(
      'the start after unsuspending',
      () => ownerClient.get(`${base}/resources`),
      (r) => r.body.attributes?.current_state === 'running',
    );
    expect((await ownerClient.post(`${base}/power`, { signal: 'kill' })).status).toBe(204);
  });
});

describe('PATCH /api/application/servers/{id}/startup with another egg', () => {
  it("validates the new egg's variables, then switches egg and nest and stores its variables", async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'Changing egg', skip_scripts: true }),
    );
    const id = created.body.attributes.id as number;
    const startup = (extra: Record<string, unknown>) =>
      app.request('PATCH', `/api/application/servers/${id}/startup?include=variables`, {
        startup: 'node {{MAIN_FILE}}',
        environment: { MAIN_FILE: 'app.js', NODE_ARGS: '' },
        egg: appEgg.id,
        image: 'talon/host-node:20',
        skip_scripts: false,
        ...extra,
      });

    const badVariable = await startup({ environment: { MAIN_FILE: '../escape.js' } });
    expect(badVariable.status).toBe(422);
    expect(firstError(badVariable).meta).toMatchObject({ source_field: 'environment.MAIN_FILE' });
    const badEgg = await startup({ egg: 999_999 });
    expect(badEgg.status).toBe(422);
    expect(firstError(badEgg).meta).toMatchObject({ source_field: 'egg' });
    const badImage = await startup({ image: 'not an image!' });
    expect(badImage.status).toBe(422);
    expect(firstError(badImage).meta).toMatchObject({ source_field: 'image' });
    const unchanged = await app.get(`/api/application/servers/${id}`);
    expect(unchanged.body.attributes).toMatchObject({ egg: egg.id, nest: egg.nest_id });

    const res = await startup({});
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({ egg: appEgg.id, nest: appEgg.nest_id });
    expect(res.body.attributes.container).toMatchObject({ startup_command: 'node {{MAIN_FILE}}' });
    expect(res.body.attributes.container.environment).toMatchObject({ MAIN_FILE: 'app.js' });
    const values = res.body.attributes.relationships.variables.data.map((v: any) => [
      v.attributes.env_variable,
      v.attributes.server_value,
    ]);
    expect(values).toEqual([
      ['MAIN_FILE', 'app.js'],
      ['NODE_ARGS', ''],
    ]);
    // The owner's startup page now shows the new egg's variables.
    const page = await ownerClient.get(`/api/client/servers/${created.body.attributes.identifier}/startup`);
    expect(page.body.data.map((v: any) => v.attributes.env_variable)).toEqual(['MAIN_FILE', 'NODE_ARGS']);
  });
});

describe('PATCH /api/application/servers/{id}/build allocations', () => {
  it('moves the primary to a freshly added allocation, and refuses removing it without one', async () => {
    const [primary, spare] = await freeAllocations(2);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, primary!, { name: 'Moving house', skip_scripts: true }),
    );
    const id = created.body.attributes.id as number;
    const build = (extra: Record<string, unknown>) =>
      app.request('PATCH', `/api/application/servers/${id}/build`, {
        allocation: primary,
        limits: { memory: 256, swap: 0, disk: 512, io: 500, cpu: 100 },
        feature_limits: { databases: 0, allocations: 2, backups: 0 },
        ...extra,
      });

    expectError(
      await build({ remove_allocations: [primary] }),
      400,
      'DisplayException',
      'You are attempting to delete the default allocation for this server but there is no fallback allocation to use.',
    );
    expectError(
      await build({ allocation: spare }),
      400,
      'DisplayException',
      'The requested default allocation is not currently assigned to this server.',
    );
    expect(await assignedTo(id)).toEqual([primary]);

    const moved = await build({ add_allocations: [spare], remove_allocations: [primary] });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.attributes.allocation).toBe(spare);
    expect(await assignedTo(id)).toEqual([spare]);

    const invalid = await build({ limits: { memory: -5, swap: 0, disk: 512, io: 5, cpu: 100 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: any) => e.meta.source_field)).toEqual(['limits.memory', 'limits.io']);
    expect((await app.get(`/api/application/servers/${id}`)).body.attributes.limits.memory).toBe(256);
  });
});

describe('POST /api/application/servers/{id}/reinstall', () => {
  it('marks the server installing and the daemon runs the install script again', async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'Reinstalled' }),
    );
    const { id, identifier, uuid } = created.body.attributes as {
      id: number;
      identifier: string;
      uuid: string;
    };
    await installed(identifier);
    const script = path.join(daemon.node.daemon_base, uuid, 'server.js');
    expect(existsSync(script)).toBe(true);
    expect(
      (
        await ownerClient.post(`/api/client/servers/${identifier}/files/delete`, {
          root: '/',
          files: ['server.js'],
        })
      ).status,
    ).toBe(204);
    expect(existsSync(script)).toBe(false);

    const res = await app.post(`/api/application/servers/${id}/reinstall`);
    expect(res.status, res.text).toBe(204);
    await installed(identifier);
    expect(existsSync(script)).toBe(true);
    expect((await app.post('/api/application/servers/999999/reinstall')).status).toBe(404);
  });
});

describe('who may change a server', () => {
  it('refuses anonymous callers, non-admin sessions, read-only keys and sessions without XSRF', async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'Guarded', skip_scripts: true }),
    );
    const id = created.body.attributes.id as number;
    const details = { name: 'Taken over', user: owner.id };
    const url = `/api/application/servers/${id}/details`;

    const anonymous = await new TestClient(panel.url).request('PATCH', url, details);
    expect(anonymous.status).toBe(401);
    expectError(
      await ownerClient.request('PATCH', url, details),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const readOnly = await applicationClient(panel, { r_servers: 1 });
    expect((await readOnly.get(`/api/application/servers/${id}`)).status).toBe(200);
    expectError(
      await readOnly.request('PATCH', url, details),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    expect((await readOnly.post(`/api/application/servers/${id}/suspend`)).status).toBe(403);
    const admin = await panel.signedIn(await panel.createUser({ admin: true }));
    admin.sendXsrf = false;
    expect((await admin.request('PATCH', url, details)).status).toBe(419);
    admin.sendXsrf = true;
    const missing = await admin.request('PATCH', url, { user: 999_999 });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: any) => e.meta.source_field)).toEqual(['name']);
    const unknownUser = await admin.request('PATCH', url, { name: 'x', user: 999_999 });
    expect(firstError(unknownUser)).toMatchObject({
      detail: 'The selected User ID is invalid.',
      meta: { source_field: 'user' },
    });
    const after = await app.get(`/api/application/servers/${id}`);
    expect(after.body.attributes).toMatchObject({ name: 'Guarded', suspended: false, user: owner.id });
    expect((await admin.request('PATCH', url, details)).status).toBe(200);
  });
});

describe('numbers beyond what the database holds', () => {
  it('answers 422 (or the allocation refusal), never 500, and stores fractional limits rounded', async () => {
    const [allocation] = await freeAllocations(1);
    const huge = 3_000_000_000;
    const before = await serverCount();
    for (const extra of [
      { user: huge },
      { egg: huge },
      { allocation: { default: huge } },
      { allocation: { default: allocation, additional: [huge] } },
      { limits: { memory: huge, swap: 0, disk: 256, io: 500, cpu: 50 } },
      { limits: { memory: 128, swap: 0, disk: huge, io: 500, cpu: huge } },
      { feature_limits: { databases: huge, allocations: 1, backups: 0 } },
    ]) {
      const res = await app.post('/api/application/servers', serverBody(owner, egg, allocation!, extra));
      expect([res.status, JSON.stringify(extra)]).toEqual([422, JSON.stringify(extra)]);
    }
    const far = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, {
        deploy: { locations: [huge], dedicated_ip: false, port_range: [] },
      }),
    );
    expect(firstError(far).code).toBe('NoViableNodeException');
    expect(await serverCount()).toBe(before);

    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, {
        name: 'Fractions',
        skip_scripts: true,
        limits: { memory: 127.6, swap: 0, disk: 256.2, io: 500, cpu: 49.5 },
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.attributes.limits).toMatchObject({ memory: 128, disk: 256, cpu: 50 });
    const id = created.body.attributes.id as number;

    const limits = { memory: 64, swap: 0, disk: 256, io: 500, cpu: 50 };
    const build = (extra: Record<string, unknown>) =>
      app.request('PATCH', `/api/application/servers/${id}/build`, {
        allocation,
        limits,
        feature_limits: { databases: 0, allocations: 1, backups: 0 },
        ...extra,
      });
    expect((await build({ limits: { ...limits, memory: huge } })).status).toBe(422);
    expect((await build({ add_allocations: [huge], remove_allocations: [huge] })).status).toBe(200);
    expect((await build({ allocation: huge })).status).toBe(400);
    const details = await app.request('PATCH', `/api/application/servers/${id}/details`, {
      name: 'Fractions',
      user: huge,
    });
    expect(firstError(details).meta).toMatchObject({ source_field: 'user' });
    const startup = await app.request('PATCH', `/api/application/servers/${id}/startup`, {
      startup: 'node server.js',
      environment: {},
      egg: huge,
      image: 'talon/host-node:20',
      skip_scripts: false,
    });
    expect(firstError(startup).meta).toMatchObject({ source_field: 'egg' });
    const after = await app.get(`/api/application/servers/${id}`);
    expect(after.body.attributes).toMatchObject({ user: owner.id, egg: egg.id, allocation });
    expect(after.body.attributes.limits.memory).toBe(64);
  });
});

// Last: it stops the daemon.
describe('DELETE /api/application/servers/{id} while the daemon is down', () => {
  it('refuses a normal delete with the daemon error and keeps the server; force deletes it', async () => {
    const [allocation] = await freeAllocations(1);
    const created = await app.post(
      '/api/application/servers',
      serverBody(owner, egg, allocation!, { name: 'Orphaned', skip_scripts: true }),
    );
    const id = created.body.attributes.id as number;
    await installed(created.body.attributes.identifier);
    await daemon.stop();

    const normal = await app.delete(`/api/application/servers/${id}`);
    expect(normal.status).toBeGreaterThanOrEqual(500);
    expect(firstError(normal).code).toBe('DaemonConnectionException');
    expect((await app.get(`/api/application/servers/${id}`)).status).toBe(200);
    expect(await assignedTo(id)).toEqual([allocation]);

    const forced = await app.delete(`/api/application/servers/${id}/force`);
    expect(forced.status, forced.text).toBe(204);
    expect((await app.get(`/api/application/servers/${id}`)).status).toBe(404);
    expect(await assignedTo(id)).toEqual([]);
  });
});
