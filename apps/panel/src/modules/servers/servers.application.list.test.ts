import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server, User } from '../../db/types.ts';
import { firstError, TestClient } from '../../test-support/client.ts';
import { applicationClient, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { countingQueries } from '../../test-support/query-counter.ts';
import { listParams } from '../application/listing.ts';
import { APPLICATION_SERVER_LIST } from './servers.application.routes.ts';
import { ServersRepository } from './servers.repository.ts';

// The admin screen's server list (docs/api.md, extensions): filter[owner_id], filter[node_id],
// filter[status] with `none`, search over the server's text and its owner, sorts name/created_at.
let panel: TestPanel;
let app: TestClient;
let node: Node;
let alice: User;
let bob: User;
let alpha: Server;
let beta: Server;
let gamma: Server;
let delta: Server;

const names = (res: { body: any }): string[] => res.body.data.map((s: any) => s.attributes.name as string);
const list = async (query: string) => {
  const res = await app.get(`/api/application/servers?${query}`);
  expect(res.status, res.text).toBe(200);
  return res;
};

beforeAll(async () => {
  panel = await startTestPanel();
  const setup = await nodeAndEgg(panel.ctx, [46200, 46209]);
  node = setup.node;
  app = await applicationClient(panel);
  alice = await panel.createUser({ username: 'alice-owner', email: 'alice@owners.example' });
  bob = await panel.createUser({ username: 'bob-player', email: 'bob@players.example' });
  const row = (owner: User, values: Partial<Server>) =>
    serverRow(panel.ctx, node, setup.egg, owner.id, values);
  alpha = await row(alice, {
    name: 'Alpha Survival',
    description: 'Hardcore world',
    created_at: '2026-01-03T00:00:00.000Z',
  });
  beta = await row(alice, {
    name: 'Beta creative',
    status: 'suspended',
    external_id: 'WHMCS-77',
    created_at: '2026-01-01T00:00:00.000Z',
  });
  gamma = await row(bob, {
    name: 'Gamma 100% uptime',
    status: 'installing',
    created_at: '2026-01-02T00:00:00.000Z',
  });
  delta = await row(bob, { name: 'Delta', status: 'install_failed', created_at: '2026-01-04T00:00:00.000Z' });
});

afterAll(async () => {
  await panel?.close();
});

describe('GET /api/application/servers: filters', () => {
  it('filters by owner and by node (exact ids)', async () => {
    expect(names(await list(`filter[owner_id]=${alice.id}`))).toEqual(['Alpha Survival', 'Beta creative']);
    expect(names(await list(`filter[owner_id]=${alice.id},${bob.id}`))).toHaveLength(4);
    // Exact, not partial: the id 1 does not match 10, 11 …; a non-number matches nothing.
    expect(names(await list(`filter[owner_id]=${bob.id}0`))).toEqual([]);
    expect(names(await list('filter[owner_id]=alice'))).toEqual([]);
    expect(names(await list(`filter[node_id]=${node.id}`))).toHaveLength(4);
    expect(names(await list(`filter[node_id]=${node.id + 1000}`))).toEqual([]);
    expect(names(await list(`filter[node_id]=${node.id}&filter[owner_id]=${bob.id}`))).toEqual([
      'Gamma 100% uptime',
      'Delta',
    ]);
  });

  it('filters by status, `none` being a server with no status', async () => {
    expect(names(await list('filter[status]=none'))).toEqual(['Alpha Survival']);
    expect(names(await list('filter[status]=suspended'))).toEqual(['Beta creative']);
    expect(names(await list('filter[status]=installing,install_failed'))).toEqual([
      'Gamma 100% uptime',
      'Delta',
    ]);
    expect(names(await list('filter[status]=none,suspended'))).toEqual(['Alpha Survival', 'Beta creative']);
    expect(names(await list('filter[status]=restoring_backup'))).toEqual([]);
    expect(names(await list('filter[status]=susp'))).toEqual([]);
    const res = await list('filter[status]=none');
    expect(res.body.meta.pagination.total).toBe(1);
  });

  it('still refuses filters it does not know (400, reference §1.5)', async () => {
    const res = await app.get('/api/application/servers?filter[owner]=1');
    expect(res.status).toBe(400);
    expect(firstError(res).code).toBe('InvalidFilterQuery');
  });
});

describe('GET /api/application/servers: search', () => {
  it("matches name, identifier, uuid, description and external id, and the owner's username and email", async () => {
    expect(names(await list('search=survival'))).toEqual(['Alpha Survival']);
    expect(names(await list(`search=${alpha.uuid}`))).toEqual(['Alpha Survival']);
    expect(names(await list(`search=${gamma.uuid_short.toUpperCase()}`))).toEqual(['Gamma 100% uptime']);
    expect(names(await list(`search=${delta.uuid.slice(9, 23)}`))).toEqual(['Delta']);
    expect(names(await list('search=hardcore'))).toEqual(['Alpha Survival']);
    expect(names(await list('search=whmcs-7'))).toEqual(['Beta creative']);
    expect(names(await list('search=BOB-PLAY'))).toEqual(['Gamma 100% uptime', 'Delta']);
    expect(names(await list('search=owners.example'))).toEqual(['Alpha Survival', 'Beta creative']);
    expect(names(await list('search=nothing-like-this'))).toEqual([]);
    // `%` is a character, not a wildcard.
    expect(names(await list('search=100%25'))).toEqual(['Gamma 100% uptime']);
    expect(names(await list('search=a%25a'))).toEqual([]);
  });

  it('combines search with filters and pagination', async () => {
    const res = await list(`search=a&filter[owner_id]=${alice.id}&per_page=1`);
    expect(res.body.meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1, total_pages: 2 });
    expect(names(res)).toEqual(['Alpha Survival']);
  });

  it('searches the owner in the same query as the page (no lookup of its own)', async () => {
    const queries = async (query: Record<string, unknown>) => {
      const counted = countingQueries(panel.ctx.db.db);
      const repo = new ServersRepository(counted.db);
      const { rows } = await repo.applicationList(listParams(query, APPLICATION_SERVER_LIST));
      return { rows, count: counted.count() };
    };
    const plain = await queries({});
    const byOwner = await queries({ search: 'bob-player' });
    expect(byOwner.rows.map((r) => r.id)).toEqual([gamma.id, delta.id]);
    expect(byOwner.count).toBe(plain.count);
  });

  it('refuses a search longer than 100 characters (422, as the reference validates it)', async () => {
    const res = await app.get(`/api/application/servers?search=${'x'.repeat(101)}`);
    expect(res.status).toBe(422);
    expect(firstError(res)).toMatchObject({
      code: 'ValidationException',
      meta: { source_field: 'search', rule: 'max' },
    });
    expect((await app.get(`/api/application/servers?search=${'x'.repeat(100)}`)).status).toBe(200);
  });
});

describe('GET /api/application/servers: sorts', () => {
  it('sorts by name and by creation time, both ways', async () => {
    // Names compare as the database's collation does (SQLite: by code point), so all capitalised here.
    expect(names(await list('sort=name'))).toEqual([
      'Alpha Survival',
      'Beta creative',
      'Delta',
      'Gamma 100% uptime',
    ]);
    expect(names(await list('sort=-name'))).toEqual([
      'Gamma 100% uptime',
      'Delta',
      'Beta creative',
      'Alpha Survival',
    ]);
    expect(names(await list('sort=created_at'))).toEqual([
      'Beta creative',
      'Gamma 100% uptime',
      'Alpha Survival',
      'Delta',
    ]);
    expect(names(await list('sort=-created_at'))[0]).toBe('Delta');
    const bad = await app.get('/api/application/servers?sort=owner');
    expect(bad.status).toBe(400);
    expect(firstError(bad).code).toBe('InvalidSortQuery');
  });
});

describe('GET /api/application/servers: search and the users right', () => {
  it("matches the owner's username and email only for a key that may read users", async () => {
    // Else a servers-only key could spell out every owner's email, one substring at a time.
    const serversOnly = await applicationClient(panel, { r_servers: 1 });
    const withUsers = await applicationClient(panel, { r_servers: 1, r_users: 1 });
    for (const search of ['owners.example', 'bob-player']) {
      const res = await serversOnly.get(`/api/application/servers?search=${search}`);
      expect(res.status, res.text).toBe(200);
      expect(names(res), search).toEqual([]);
    }
    expect(names(await serversOnly.get('/api/application/servers?search=survival'))).toEqual([
      'Alpha Survival',
    ]);
    expect(names(await withUsers.get('/api/application/servers?search=owners.example'))).toEqual([
      'Alpha Survival',
      'Beta creative',
    ]);
    expect(names(await withUsers.get('/api/application/servers?search=bob-player'))).toEqual([
      'Gamma 100% uptime',
      'Delta',
    ]);
  });
});

describe('GET /api/application/servers: who may list', () => {
  it('answers 401 without credentials, 403 to a non-admin session and to a key without servers', async () => {
    expect((await new TestClient(panel.url).get('/api/application/servers?search=alpha')).status).toBe(401);
    const player = await panel.signedIn(bob);
    const asPlayer = await player.get('/api/application/servers?search=alpha');
    expect(asPlayer.status).toBe(403);
    expect(firstError(asPlayer).detail).toBe('This account does not have permission to access the API.');
    const usersOnly = await applicationClient(panel, { r_users: 3 });
    const denied = await usersOnly.get(`/api/application/servers?filter[owner_id]=${alice.id}`);
    expect(denied.status).toBe(403);
    expect(firstError(denied).detail).toBe('This action is unauthorized.');
    const admin = await panel.signedIn(await panel.createUser({ admin: true }));
    expect(names(await admin.get('/api/application/servers?search=alpha'))).toEqual(['Alpha Survival']);
    expect(beta.status).toBe('suspended');
  });
});
