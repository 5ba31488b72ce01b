import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The client API's server list and the per-server rules that need no daemon.
let panel: TestPanel;
let node: Node;
let egg: Egg;
let alice: User;
let bob: User;
let admin: User;
let aliceClient: TestClient;
let bobClient: TestClient;
let adminClient: TestClient;

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [44000, 44009]));
  alice = await panel.createUser({ username: 'alice' });
  bob = await panel.createUser({ username: 'bob' });
  admin = await panel.createUser({ username: 'root', admin: true });
  aliceClient = await panel.signedIn(alice);
  bobClient = await panel.signedIn(bob);
  adminClient = await panel.signedIn(admin);
  await serverRow(panel.ctx, node, egg, alice.id, { name: 'Alice Survival' });
  await serverRow(panel.ctx, node, egg, alice.id, { name: 'Alice Creative' });
  const shared = await serverRow(panel.ctx, node, egg, bob.id, { name: 'Bob Shared' });
  await serverRow(panel.ctx, node, egg, bob.id, { name: 'Bob Private' });
  await addSubuser(panel.ctx, shared, alice, ['websocket.connect', 'control.console']);
});
afterAll(async () => {
  await panel.close();
});

const names = (res: { body: any }) => res.body.data.map((s: any) => s.attributes.name as string).sort();

describe('GET /api/client', () => {
  it('lists what the caller owns or is a subuser of, and narrows by type', async () => {
    expect(names(await aliceClient.get('/api/client'))).toEqual([
      'Alice Creative',
      'Alice Survival',
      'Bob Shared',
    ]);
    expect(names(await aliceClient.get('/api/client?type=owner'))).toEqual([
      'Alice Creative',
      'Alice Survival',
    ]);
    const bobs = await bobClient.get('/api/client');
    expect(names(bobs)).toEqual(['Bob Private', 'Bob Shared']);
    expect(bobs.body.data.every((s: any) => s.attributes.server_owner === true)).toBe(true);
    // Non-admins asking for the admin views get an empty list, not an error.
    expect((await aliceClient.get('/api/client?type=admin-all')).body.data).toEqual([]);
    expect(names(await adminClient.get('/api/client?type=admin-all'))).toHaveLength(4);
    expect(names(await adminClient.get('/api/client?type=admin'))).toHaveLength(4);
    expect(names(await adminClient.get('/api/client'))).toEqual([]);
  });

  it('searches by name, uuid and allocation with filter[*]', async () => {
    expect(names(await aliceClient.get('/api/client?filter[*]=creat'))).toEqual(['Alice Creative']);
    const all = await adminClient.get('/api/client?type=admin-all');
    const target = all.body.data.find((s: any) => s.attributes.name === 'Bob Private').attributes;
    expect(
      names(await adminClient.get(`/api/client?type=admin-all&filter[*]=${target.uuid.slice(0, 13)}`)),
    ).toEqual(['Bob Private']);
    const port = target.relationships.allocations.data[0].attributes.port as number;
    expect(names(await adminClient.get(`/api/client?type=admin-all&filter[*]=127.0.0.1:${port}`))).toEqual([
      'Bob Private',
    ]);
    expect(names(await adminClient.get(`/api/client?type=admin-all&filter[*]=:${port}`))).toEqual([
      'Bob Private',
    ]);
  });

  it('paginates with links that keep the query', async () => {
    const page = await aliceClient.get('/api/client?per_page=2&page=2');
    expect(page.body.meta.pagination).toMatchObject({
      total: 3,
      count: 1,
      per_page: 2,
      current_page: 2,
      total_pages: 2,
    });
    expect(page.body.meta.pagination.links.previous).toContain('per_page=2');
    expect(page.body.meta.pagination.links.previous).toContain('page=1');
    const unknown = await aliceClient.get('/api/client?filter[owner]=x');
    expect(unknown.status).toBe(400);
    expect(firstError(unknown).code).toBe('InvalidFilterQuery');
  });
});

describe('GET /api/client/servers/{server}', () => {
  it('shows a subuser only the primary allocation and hides startup values without startup.read', async () => {
    const list = await aliceClient.get('/api/client');
    const shared = list.body.data.find((s: any) => s.attributes.name === 'Bob Shared').attributes;
    expect(shared.server_owner).toBe(false);
    const details = await aliceClient.get(`/api/client/servers/${shared.uuid}`);
    expect(details.status).toBe(200);
    expect(details.body.meta).toEqual({
      is_server_owner: false,
      user_permissions: ['websocket.connect', 'control.console'],
    });
    expect(details.body.attributes.relationships.variables).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    expect(details.body.attributes.relationships.allocations.data[0].attributes.notes).toBeNull();
    expect(details.body.attributes.invocation).toBe('node server.js');
    // By 8-character identifier too, as the web app's page URLs use.
    expect((await aliceClient.get(`/api/client/servers/${shared.identifier}`)).status).toBe(200);
  });

  // Reference §3.3: root admins, owners of the server or not, also get the admin-only websocket
  // streams (install output, real daemon errors, transfer logs); a plain owner gets the wildcard.
  it("lists a root admin's admin.websocket.* permissions in the details and the websocket token", async () => {
    const ROOT_ADMIN = ['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'];
    const all = await adminClient.get('/api/client?type=admin-all');
    const bobs = all.body.data.find((s: any) => s.attributes.name === 'Bob Private').attributes;
    const asAdmin = await adminClient.get(`/api/client/servers/${bobs.identifier}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.meta).toEqual({ is_server_owner: false, user_permissions: ROOT_ADMIN });
    const asOwner = await bobClient.get(`/api/client/servers/${bobs.identifier}`);
    expect(asOwner.body.meta).toEqual({ is_server_owner: true, user_permissions: ['*'] });
    const own = await serverRow(panel.ctx, node, egg, admin.id, { name: 'Root Own' });
    const ownDetails = await adminClient.get(`/api/client/servers/${own.uuid_short}`);
    expect(ownDetails.body.meta).toEqual({ is_server_owner: true, user_permissions: ROOT_ADMIN });
    // The token's `permissions` claim is the same list as `user_permissions` (reference §3.4).
    for (const [client, id, expected] of [
      [adminClient, bobs.identifier, ROOT_ADMIN],
      [adminClient, own.uuid_short, ROOT_ADMIN],
      [bobClient, bobs.identifier, ['*']],
    ] as const) {
      const socket = await client.get(`/api/client/servers/${id}/websocket`);
      expect(socket.status).toBe(200);
      const claims = JSON.parse(Buffer.from(socket.body.data.token.split('.')[1], 'base64url').toString());
      expect(claims.permissions).toEqual(expected);
    }
  });

  it('answers 404 for servers of others and unknown ids alike', async () => {
    const all = await adminClient.get('/api/client?type=admin-all');
    const bobs = all.body.data.find((s: any) => s.attributes.name === 'Bob Private').attributes;
    const foreign = await aliceClient.get(`/api/client/servers/${bobs.identifier}`);
    expect(foreign.status).toBe(404);
    expect((await aliceClient.get('/api/client/servers/00000000')).status).toBe(404);
    expect(
      (await aliceClient.post(`/api/client/servers/${bobs.identifier}/power`, { signal: 'start' })).status,
    ).toBe(404);
  });

  it('answers 409 with the reason while the server is installing, still showing its details', async () => {
    const installing = await serverRow(panel.ctx, node, egg, alice.id, {
      name: 'Installing',
      status: 'installing',
    });
    const details = await aliceClient.get(`/api/client/servers/${installing.uuid_short}`);
    expect(details.status).toBe(200);
    expect(details.body.attributes).toMatchObject({ status: 'installing', is_installing: true });
    const stats = await aliceClient.get(`/api/client/servers/${installing.uuid_short}/resources`);
    expectError(
      stats,
      409,
      'ServerStateConflictException',
      'This server has not yet completed its installation process, please try again later.',
    );
    expect((await aliceClient.get(`/api/client/servers/${installing.uuid_short}/websocket`)).status).toBe(
      409,
    );
    // A root admin may still watch the installation.
    expect((await adminClient.get(`/api/client/servers/${installing.uuid_short}/websocket`)).status).toBe(
      200,
    );
  });

  it("signs console tokens for the node with the caller's permissions", async () => {
    const list = await aliceClient.get('/api/client?type=owner');
    const own = list.body.data[0].attributes;
    const res = await aliceClient.get(`/api/client/servers/${own.uuid}/websocket`);
    expect(res.body.data.socket).toBe(`ws://127.0.0.1:18081/api/servers/${own.uuid}/ws`);
    const [header, payload] = (res.body.data.token as string)
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      server_uuid: own.uuid,
      permissions: ['*'],
      user_uuid: alice.uuid,
      aud: ['http://127.0.0.1:18081'],
    });
    expect(payload.exp - payload.iat).toBe(600);
    expect(header.jti).toBe(payload.jti);
  });
});

describe('the order of the checks: server state (409), then permission (403), then input (422)', () => {
  let ordered: Server;
  let helperClient: TestClient;
  let starterClient: TestClient;
  const url = (path = '') => `/api/client/servers/${ordered.uuid_short}${path}`;
  const setStatus = (status: Server['status']) =>
    panel.ctx.repositories.servers.update(ordered.id, { status });
  const suspendedError = {
    code: 'ServerStateConflictException',
    status: '409',
    detail: 'This server is currently suspended and the functionality requested is unavailable.',
  };

  beforeAll(async () => {
    ordered = await serverRow(panel.ctx, node, egg, bob.id, { name: 'Ordered' });
    // helper: no power, no websocket; starter: control.start only.
    const helper = await panel.createUser({ username: 'helper' });
    const starter = await panel.createUser({ username: 'starter' });
    for (const [user, permissions] of [
      [helper, ['control.console']],
      [starter, ['control.start']],
    ] as const) {
      await addSubuser(panel.ctx, ordered, user, permissions);
    }
    helperClient = await panel.signedIn(helper);
    starterClient = await panel.signedIn(starter);
  });

  it('answers 409 on a suspended server to a subuser without the permission and to an owner with bad input', async () => {
    await setStatus('suspended');
    try {
      const cases = [
        // no control.start (403 on a usable server)
        await helperClient.post(url('/power'), { signal: 'start' }),
        // no websocket.connect
        await helperClient.get(url('/websocket')),
        // an invalid signal and an empty command from the owner (422 on a usable server)
        await bobClient.post(url('/power'), { signal: 'random' }),
        await bobClient.post(url('/command'), { command: '' }),
        await helperClient.post(url('/command'), {}),
        await bobClient.get(url('/resources')),
      ];
      for (const res of cases) {
        expect(res.status).toBe(409);
        expect(firstError(res)).toEqual(suspendedError);
      }
      // The details stay visible in every state.
      expect((await helperClient.get(url())).status).toBe(200);
    } finally {
      await setStatus(null);
    }
  });

  it('answers 403 before 422 on a usable server', async () => {
    for (const res of [
      await helperClient.post(url('/power'), { signal: 'random' }),
      await helperClient.post(url('/power'), {}),
      // An unknown signal needs a permission no subuser holds, whatever power keys it has.
      await starterClient.post(url('/power'), { signal: 'random' }),
      await starterClient.post(url('/command'), { command: '' }),
    ]) {
      expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
    const invalid = await bobClient.post(url('/power'), { signal: 'random' });
    expect(invalid.status).toBe(422);
    expect(firstError(invalid).meta.source_field).toBe('signal');
    // With the permission, the input is what is wrong.
    const empty = await helperClient.post(url('/command'), { command: '' });
    expect(empty.status).toBe(422);
    expect(firstError(empty).meta.source_field).toBe('command');
    const refused = await starterClient.get(url('/websocket'));
    expect(refused.status).toBe(403);
    expect(firstError(refused)).toMatchObject({
      code: 'HttpForbiddenException',
      detail: "You do not have permission to connect to this server's websocket.",
    });
  });

  it('lets only root admins open the websocket of an installing server, never of a suspended one or one in maintenance', async () => {
    try {
      await setStatus('installing');
      expect((await adminClient.get(url('/websocket'))).status).toBe(200);
      // A subuser without websocket.connect hears about the state first.
      expect((await helperClient.get(url('/websocket'))).status).toBe(409);
      expect((await bobClient.get(url('/websocket'))).status).toBe(409);

      await setStatus('suspended');
      const suspended = await adminClient.get(url('/websocket'));
      expect(suspended.status).toBe(409);
      expect(firstError(suspended)).toEqual(suspendedError);

      await setStatus(null);
      await panel.ctx.db.db
        .updateTable('nodes')
        .set({ maintenance_mode: 1 })
        .where('id', '=', node.id)
        .execute();
      const maintenance = await adminClient.get(url('/websocket'));
      expect(maintenance.status).toBe(409);
      expect(firstError(maintenance).detail).toBe(
        'The node of this server is currently under maintenance and the functionality requested is unavailable.',
      );
      expect((await helperClient.get(url())).status).toBe(200);
    } finally {
      await panel.ctx.db.db
        .updateTable('nodes')
        .set({ maintenance_mode: 0 })
        .where('id', '=', node.id)
        .execute();
      await setStatus(null);
    }
  });
});
