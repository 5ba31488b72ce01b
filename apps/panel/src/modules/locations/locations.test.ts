import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, type Res, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { applicationClient, FULL, insertNode, READ, UTC_ATOM } from '../application/testing.ts';

let panel: TestPanel;
let admin: User;
let api: TestClient;

const LOCATION_KEYS = ['id', 'short', 'long', 'updated_at', 'created_at'];
const patch = (c: TestClient, path: string, b: unknown) => c.request('PATCH', path, b);
const details = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );

let seq = 0;
const short = () => `loc${++seq}`;

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel, admin, { r_locations: FULL, r_nodes: READ });
});
afterAll(async () => {
  await panel.close();
});

describe('access', () => {
  it('401 without credentials, 403 for non-admins and for keys without r_locations', async () => {
    expect((await new TestClient(panel.url).get('/api/application/locations')).status).toBe(401);
    const user = await panel.createUser();
    const foreign = await applicationClient(panel, user, { r_locations: FULL });
    expect(firstError(await foreign.get('/api/application/locations')).detail).toBe(
      'This account does not have permission to access the API.',
    );
    const none = await applicationClient(panel, admin, { r_users: FULL });
    const res = await none.get('/api/application/locations');
    expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
  });

  it('a read-only key cannot create, update or delete', async () => {
    const readOnly = await applicationClient(panel, admin, { r_locations: READ });
    const id = (await api.post('/api/application/locations', { short: short() })).body.attributes
      .id as number;
    expect((await readOnly.get(`/api/application/locations/${id}`)).status).toBe(200);
    for (const res of [
      await readOnly.post('/api/application/locations', { short: short() }),
      await patch(readOnly, `/api/application/locations/${id}`, { short: short() }),
      await readOnly.delete(`/api/application/locations/${id}`),
    ]) {
      expect(res.status).toBe(403);
    }
  });
});

describe('POST /api/application/locations', () => {
  it('creates a location: 201 with meta.resource', async () => {
    const res = await api.post('/api/application/locations', { short: 'eu-west', long: 'Amsterdam' });
    expect(res.status).toBe(201);
    expect(res.body.object).toBe('location');
    expect(Object.keys(res.body.attributes)).toEqual(LOCATION_KEYS);
    expect(res.body.attributes).toMatchObject({ short: 'eu-west', long: 'Amsterdam' });
    expect(res.body.attributes.created_at).toMatch(UTC_ATOM);
    expect(res.body.meta).toEqual({
      resource: `${panel.url}/api/application/locations/${res.body.attributes.id}`,
    });
    const noLong = await api.post('/api/application/locations', { short: short(), long: '' });
    expect(noLong.status).toBe(201);
    expect(noLong.body.attributes.long).toBeNull();
  });

  it('validates with the reference labels', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'short|required|The Location Identifier field is required.'],
      [{ short: 12 }, 'short|string|The Location Identifier must be a string.'],
      [
        { short: 'x'.repeat(61) },
        'short|between|The Location Identifier must be between 1 and 60 characters.',
      ],
      [
        { short: short(), long: 'x'.repeat(192) },
        'long|between|The Location Description must be between 1 and 191 characters.',
      ],
      [{ short: 'eu-west' }, 'short|unique|The Location Identifier has already been taken.'],
    ];
    await api.post('/api/application/locations', { short: 'eu-west' });
    for (const [b, expected] of cases) {
      const res = await api.post('/api/application/locations', b);
      expect(res.status, JSON.stringify(b)).toBe(422);
      expect(details(res)).toEqual([expected]);
    }
  });
});

describe('GET /api/application/locations', () => {
  it('lists, filters and sorts', async () => {
    await api.post('/api/application/locations', { short: 'zz-filter-a', long: 'Filter Town' });
    await api.post('/api/application/locations', { short: 'zz-filter-b', long: 'Elsewhere' });
    const all = await api.get('/api/application/locations');
    expect(all.status).toBe(200);
    expect(all.body.data[0].object).toBe('location');
    expect(all.body.meta.pagination.per_page).toBe(50);
    const byShort = await api.get('/api/application/locations?filter[short]=ZZ-FILTER');
    expect(byShort.body.data.map((l: any) => l.attributes.short)).toEqual(['zz-filter-a', 'zz-filter-b']);
    const byLong = await api.get('/api/application/locations?filter[long]=town');
    expect(byLong.body.data.map((l: any) => l.attributes.short)).toEqual(['zz-filter-a']);
    const desc = await api.get('/api/application/locations?sort=-id');
    const ids = desc.body.data.map((l: any) => l.attributes.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(firstError(await api.get('/api/application/locations?sort=long')).detail).toBe(
      'Requested sort(s) `long` is not allowed. Allowed sort(s) are `id, short`.',
    );
    expect(firstError(await api.get('/api/application/locations?filter[id]=1')).code).toBe(
      'InvalidFilterQuery',
    );
  });

  it('paginates', async () => {
    const res = await api.get('/api/application/locations?per_page=2&page=2');
    expect(res.body.meta.pagination).toMatchObject({ per_page: 2, current_page: 2, count: 2 });
    expect(res.body.meta.pagination.links.previous).toBe(`${panel.url}/api/application/locations?page=1`);
  });

  it('404s unknown ids', async () => {
    const res = await api.get('/api/application/locations/424242');
    expect(res.status).toBe(404);
    expect(firstError(res).detail).toBe('The requested resource could not be found on the server.');
  });

  it('includes nodes when the key may read nodes, a null resource otherwise; sessions get it', async () => {
    const { locationId, nodeId } = await insertNode(panel);
    const res = await api.get(`/api/application/locations/${locationId}?include=nodes`);
    const nodes = res.body.attributes.relationships.nodes;
    expect(nodes.object).toBe('list');
    expect(nodes.data.map((n: any) => [n.object, n.attributes.id])).toEqual([['node', nodeId]]);
    expect(nodes.data[0].attributes.allocated_resources).toEqual({ memory: 0, disk: 0 });

    const noNodes = await applicationClient(panel, admin, { r_locations: READ });
    const denied = await noNodes.get(`/api/application/locations/${locationId}?include=nodes`);
    expect(denied.body.attributes.relationships).toEqual({
      nodes: { object: 'null_resource', attributes: null },
    });

    const session = await panel.signedIn(admin);
    const bySession = await session.get(`/api/application/locations/${locationId}?include=nodes,unknown`);
    expect(bySession.body.attributes.relationships.nodes.data).toHaveLength(1);

    const plain = await api.get(`/api/application/locations/${locationId}`);
    expect(plain.body.attributes.relationships).toBeUndefined();
  });
});

describe('PATCH /api/application/locations/{id}', () => {
  it('updates, re-validates short, keeps its own short unique-exempt', async () => {
    const created = (await api.post('/api/application/locations', { short: 'patch-me', long: 'Old' })).body
      .attributes;
    const res = await patch(api, `/api/application/locations/${created.id}`, {
      short: 'patch-me',
      long: 'New',
    });
    expect(res.status).toBe(200);
    expect(res.body.attributes).toMatchObject({ id: created.id, short: 'patch-me', long: 'New' });
    expect(res.body.meta).toBeUndefined();
    expect(details(await patch(api, `/api/application/locations/${created.id}`, { long: 'x' }))).toEqual([
      'short|required|The Location Identifier field is required.',
    ]);
    await api.post('/api/application/locations', { short: 'other-short' });
    expect(
      details(await patch(api, `/api/application/locations/${created.id}`, { short: 'other-short' })),
    ).toEqual(['short|unique|The Location Identifier has already been taken.']);
    expect((await patch(api, '/api/application/locations/999999', { short: 'x1' })).status).toBe(404);
  });
});

describe('DELETE /api/application/locations/{id}', () => {
  it('deletes an empty location with 204 and an empty body', async () => {
    const created = (await api.post('/api/application/locations', { short: short() })).body.attributes;
    const res = await api.delete(`/api/application/locations/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/api/application/locations/${created.id}`)).status).toBe(404);
  });

  it('refuses a location with nodes', async () => {
    const { locationId } = await insertNode(panel);
    const res = await api.delete(`/api/application/locations/${locationId}`);
    expectError(
      res,
      400,
      'HasActiveNodesException',
      'Cannot delete a location that has active nodes attached to it.',
    );
  });
});
