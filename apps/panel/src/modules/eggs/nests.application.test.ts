import { adminNestSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, type Res, TestClient } from '../../test-support/client.ts';
import { activityAbout, applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { insertNode, insertServer, UTC_ATOM } from '../application/testing.ts';

// Nest writes and the nest list's `search` (extensions, docs/api.md "Nests and eggs").
let panel: TestPanel;
let api: TestClient;
let admin: User;

const patch = (c: TestClient, path: string, body: unknown) => c.request('PATCH', path, body);
const fields = (res: Res) =>
  (res.body.errors as { meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}`,
  );
const nestCount = async () =>
  Number(
    (
      await panel.ctx.db.db
        .selectFrom('nests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel);
});
afterAll(async () => {
  await panel.close();
});

describe('POST /api/application/nests', () => {
  it('creates a nest (201, meta.resource) and records it', async () => {
    const res = await api.post('/api/application/nests', {
      name: 'Survival games',
      description: 'Hard ones',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.object).toBe('nest');
    const a = adminNestSchema.strict().parse(res.body.attributes);
    expect(a).toMatchObject({
      name: 'Survival games',
      description: 'Hard ones',
      author: 'support@talon.invalid',
    });
    expect(a.uuid).toMatch(/^[0-9a-f-]{36}$/u);
    expect(a.created_at).toMatch(UTC_ATOM);
    expect(res.body.meta.resource).toBe(`${panel.url}/api/application/nests/${a.id}`);
    expect((await api.get(`/api/application/nests/${a.id}`)).body.attributes.name).toBe('Survival games');
    const events = await activityAbout(panel.ctx, { type: 'nest', id: a.id });
    expect(events.map((e) => e.event)).toEqual(['nest:create']);
  });

  it('refuses a missing, empty or too long name and a non-text description (422 each), creating nothing', async () => {
    const before = await nestCount();
    const missing = await api.post('/api/application/nests', { description: 'x' });
    expect(missing.status).toBe(422);
    expect(fields(missing)).toEqual(['name|required']);
    expect(firstError(missing).detail).toBe('The name field is required.');
    expect(fields(await api.post('/api/application/nests', { name: '' }))).toEqual(['name|required']);
    expect(fields(await api.post('/api/application/nests', { name: 'x'.repeat(192) }))).toEqual([
      'name|between',
    ]);
    expect(fields(await api.post('/api/application/nests', { name: 'ok', description: 5 }))).toEqual([
      'description|string',
    ]);
    expect(await nestCount()).toBe(before);
  });
});

describe('PATCH and DELETE /api/application/nests/{nest}', () => {
  it('renames a nest, and a bad name changes nothing', async () => {
    const id = (await api.post('/api/application/nests', { name: 'Before' })).body.attributes.id;
    const res = await patch(api, `/api/application/nests/${id}`, { name: 'After', description: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes).toMatchObject({ id, name: 'After', description: null });
    const bad = await patch(api, `/api/application/nests/${id}`, { name: 7 });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['name|string']);
    expect((await api.get(`/api/application/nests/${id}`)).body.attributes.name).toBe('After');
    expect((await patch(api, '/api/application/nests/99999', { name: 'x' })).status).toBe(404);
  });

  it('deletes an empty nest (204) and refuses one with eggs (400), which stays', async () => {
    const id = (await api.post('/api/application/nests', { name: 'Empty' })).body.attributes.id;
    expect((await api.delete(`/api/application/nests/${id}`)).status).toBe(204);
    expect((await api.get(`/api/application/nests/${id}`)).status).toBe(404);

    const { nodeId, allocationId } = await insertNode(panel);
    const serverId = await insertServer(panel, { ownerId: admin.id, nodeId, allocationId });
    const { nest_id: nestId } = await panel.ctx.db.db
      .selectFrom('servers')
      .select('nest_id')
      .where('id', '=', serverId)
      .executeTakeFirstOrThrow();
    const refused = await api.delete(`/api/application/nests/${nestId}`);
    expectError(refused, 400, 'DisplayException', 'Cannot delete a nest that still has eggs.');
    expect((await api.get(`/api/application/nests/${nestId}`)).status).toBe(200);
  });
});

describe('access to the nest writes', () => {
  it('needs credentials (401)', async () => {
    const anonymous = new TestClient(panel.url);
    expectError(
      await anonymous.post('/api/application/nests', { name: 'x' }),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
  });

  it('refuses non-admin sessions, keys without r_nests and read-only keys (403), changing nothing', async () => {
    const id = (await api.post('/api/application/nests', { name: 'Guarded' })).body.attributes.id;
    const before = await nestCount();
    const session = await panel.signedIn(await panel.createUser());
    const refused = await session.post('/api/application/nests', { name: 'x' });
    expectError(
      refused,
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    for (const client of [
      await applicationClient(panel, { r_eggs: 3 }),
      await applicationClient(panel, { r_nests: 1 }),
    ]) {
      for (const res of [
        await client.post('/api/application/nests', { name: 'x' }),
        await patch(client, `/api/application/nests/${id}`, { name: 'x' }),
        await client.delete(`/api/application/nests/${id}`),
      ])
        expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
    expect(await nestCount()).toBe(before);
    expect((await api.get(`/api/application/nests/${id}`)).body.attributes.name).toBe('Guarded');
  });

  it("accepts a root admin's session with the XSRF header, and refuses it without", async () => {
    const session = await panel.signedIn(admin);
    const res = await session.post('/api/application/nests', { name: 'By session' });
    expect(res.status, res.text).toBe(201);
    session.sendXsrf = false;
    expect((await session.post('/api/application/nests', { name: 'No xsrf' })).status).toBe(419);
  });
});

describe('GET /api/application/nests?search=', () => {
  it('matches name or description, ignoring case, and pages the matches', async () => {
    await api.post('/api/application/nests', { name: 'Zebra racing', description: null });
    await api.post('/api/application/nests', { name: 'Quiet', description: 'for ZEBRA fans' });
    const res = await api.get('/api/application/nests?search=zebra&per_page=1');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1 });
    expect(res.body.data.map((n: { attributes: { name: string } }) => n.attributes.name)).toEqual([
      'Zebra racing',
    ]);
    expect((await api.get('/api/application/nests?search=nothing-like-this')).body.data).toEqual([]);
  });
});
