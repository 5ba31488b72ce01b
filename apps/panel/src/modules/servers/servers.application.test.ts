import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, User } from '../../db/types.ts';
import { KEY_TYPE } from '../api-keys/api-keys.service.ts';
import { firstError, TestClient } from '../../test-support/client.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { applicationClient, gameServerEgg } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The application API for servers, as billing modules use it, against a real daemon.
let panel: TestPanel;
let daemon: TestDaemon;
let app: TestClient;
let owner: User;
let egg: Egg;

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Billing server',
  user: owner.id,
  egg: egg.id,
  docker_image: 'talon/host-node:20',
  startup: 'node server.js',
  environment: { MAX_PLAYERS: '8', MOTD: 'Billed', WORLD_NAME: 'billing' },
  limits: { memory: 128, swap: 0, disk: 256, io: 500, cpu: 50 },
  feature_limits: { databases: null, allocations: 2, backups: 1 },
  deploy: { locations: [], dedicated_ip: false, port_range: [] },
  start_on_completion: false,
  ...extra,
});

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx, 6);
  egg = await gameServerEgg(panel.ctx);
  app = await applicationClient(panel);
  owner = await panel.createUser();
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('POST /api/application/servers', () => {
  it('validates the body first, then the variables with the rules of the egg and their labels', async () => {
    const res = await app.post(
      '/api/application/servers',
      body({ name: '', limits: { memory: 128, swap: 0, disk: 256, io: 5, cpu: 50 } }),
    );
    expect(res.status).toBe(422);
    const details = res.body.errors.map((e: any) => `${e.meta.source_field}: ${e.detail}`);
    expect(details).toEqual([
      'name: The Server Name field is required.',
      'limits.io: The limits.io must be between 10 and 1000.',
    ]);
    const vars = await app.post('/api/application/servers', {
      ...body(),
      environment: { MAX_PLAYERS: 'lots', MOTD: 'x', WORLD_NAME: 'has spaces' },
    });
    expect(vars.status).toBe(422);
    const fields = vars.body.errors.map((e: any) => e.meta.source_field);
    expect(fields).toContain('environment.MAX_PLAYERS');
    expect(fields).toContain('environment.WORLD_NAME');
    expect(vars.body.errors[0].detail).toMatch(/^The .+ variable must be an integer\.$/u);
    expect(await panel.ctx.db.db.selectFrom('servers').select('id').execute()).toEqual([]);
  });

  it('answers the deployment errors billing modules treat as "no room"', async () => {
    const noNode = await app.post(
      '/api/application/servers',
      body({ limits: { memory: 10_000_000, swap: 0, disk: 256, io: 500, cpu: 50 } }),
    );
    expect(noNode.status).toBe(400);
    expect(firstError(noNode).code).toBe('NoViableNodeException');
    const noPort = await app.post(
      '/api/application/servers',
      body({ deploy: { locations: [], dedicated_ip: false, port_range: ['2000-2001'] } }),
    );
    expect(noPort.status).toBe(400);
    expect(firstError(noPort)).toMatchObject({
      code: 'NoViableAllocationException',
      detail: 'No allocations satisfying the requirements for automatic deployment were found.',
    });
  });

  it('creates by deployment, finds it by external id, changes package, suspends and deletes it (WHMCS flow)', async () => {
    const eggInfo = await app.get(`/api/application/nests/${egg.nest_id}/eggs/${egg.id}?include=variables`);
    expect(eggInfo.status).toBe(200);
    expect(eggInfo.body.attributes.docker_image).toBe('talon/host-node:20');
    expect(
      eggInfo.body.attributes.relationships.variables.data.map((v: any) => v.attributes.env_variable),
    ).toEqual(['MAX_PLAYERS', 'MOTD', 'WORLD_NAME']);

    expect((await app.get('/api/application/servers/external/service-42')).status).toBe(404);
    const created = await app.post('/api/application/servers', body({ external_id: 'service-42', nest: 99 }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.meta).toBeUndefined();
    const attrs = created.body.attributes;
    expect(attrs).toMatchObject({
      external_id: 'service-42',
      status: 'installing',
      user: owner.id,
      egg: egg.id,
    });
    expect(attrs.container).toMatchObject({
      image: 'talon/host-node:20',
      installed: 0,
      startup_command: 'node server.js',
    });
    expect(attrs.container.environment).toMatchObject({ MAX_PLAYERS: '8', P_SERVER_UUID: attrs.uuid });

    const found = await app.get('/api/application/servers/external/service-42');
    expect(found.body.attributes.id).toBe(attrs.id);

    const build = await app.request('PATCH', `/api/application/servers/${attrs.id}/build`, {
      allocation: attrs.allocation,
      memory: 256,
      swap: 0,
      io: 500,
      cpu: 100,
      disk: 512,
      oom_disabled: true,
      feature_limits: { databases: 1, allocations: 2, backups: 2 },
    });
    expect(build.status, build.text).toBe(200);
    expect(build.body.attributes.limits).toMatchObject({ memory: 256, cpu: 100, disk: 512 });
    expect(build.body.attributes.feature_limits).toEqual({ databases: 1, allocations: 2, backups: 2 });

    const startup = await app.request('PATCH', `/api/application/servers/${attrs.id}/startup`, {
      startup: 'node server.js',
      environment: { MAX_PLAYERS: '20' },
      egg: egg.id,
      image: 'talon/host-node:20',
      skip_scripts: false,
    });
    expect(startup.status, startup.text).toBe(200);
    // Variables left out keep their values (the original would blank them).
    expect(startup.body.attributes.container.environment).toMatchObject({
      MAX_PLAYERS: '20',
      MOTD: 'Billed',
    });

    const other = await panel.createUser();
    const details = await app.request('PATCH', `/api/application/servers/${attrs.id}/details`, {
      name: 'Renamed',
      user: other.id,
    });
    expect(details.status).toBe(200);
    expect(details.body.attributes).toMatchObject({
      name: 'Renamed',
      user: other.id,
      external_id: 'service-42',
    });

    expect((await app.post(`/api/application/servers/${attrs.id}/suspend`)).status).toBe(204);
    expect((await app.post(`/api/application/servers/${attrs.id}/suspend`)).status).toBe(204);
    expect((await app.get(`/api/application/servers/${attrs.id}`)).body.attributes).toMatchObject({
      status: 'suspended',
      suspended: true,
    });
    expect((await app.delete(`/api/application/servers/${attrs.id}`)).status).toBe(204);
    expect((await app.get(`/api/application/servers/${attrs.id}`)).status).toBe(404);
    const released = await panel.ctx.db.db
      .selectFrom('allocations')
      .select('id')
      .where('id', '=', attrs.allocation)
      .where('server_id', 'is', null)
      .execute();
    expect(released).toHaveLength(1);
  });

  it('lists with filters and refuses keys without the servers permission', async () => {
    await app.post('/api/application/servers', body({ name: 'Listed one' }));
    const list = await app.get('/api/application/servers?filter[name]=listed');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: any) => s.attributes.name)).toEqual(['Listed one']);
    expect((await app.get('/api/application/servers?filter[nope]=x')).status).toBe(400);

    const admin = await panel.createUser({ admin: true });
    const key = await panel.ctx.services.apiKeys.create(
      admin,
      KEY_TYPE.application,
      { description: 'x' },
      { r_servers: 1 },
    );
    const readOnly = TestClient.withKey(panel.url, key.key.identifier + key.secret);
    expect((await readOnly.get('/api/application/servers')).status).toBe(200);
    const denied = await readOnly.post('/api/application/servers', body());
    expect(denied.status).toBe(403);
    expect(firstError(denied).detail).toBe('This action is unauthorized.');
  });
});
