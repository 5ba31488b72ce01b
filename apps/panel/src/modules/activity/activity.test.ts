import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, firstError, TestClient } from '../../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

let panel: TestPanel;
let user: User;
let other: User;
let client: TestClient;

type Entry = { attributes: Record<string, any> };
const events = (res: { body: { data: Entry[] } }) => res.body.data.map((e) => e.attributes.event as string);

beforeAll(async () => {
  panel = await startTestPanel();
  user = await panel.createUser();
  other = await panel.createUser();
  const log = panel.ctx.services.activity;
  const subject = [{ type: 'user', id: user.id }];
  for (let i = 0; i < 28; i++) {
    await log.log(
      `test:event.n${String(i).padStart(2, '0')}`,
      { userId: user.id, apiKeyId: null, ip: '10.1.1.1' },
      subject,
    );
  }
  await log.log('user:api-key.create', { userId: user.id, apiKeyId: 77, ip: '10.1.1.2' }, subject, {
    identifier: 'ptlc_abc',
    ip: '10.9.9.9',
    files: ['a', 'b', 'c'],
  });
  await log.log('test:by-someone-else', { userId: other.id, apiKeyId: null, ip: '10.2.2.2' }, subject, {
    ip: '10.3.3.3',
  });
  await log.log('test:not-mine', { userId: other.id, apiKeyId: null, ip: '10.2.2.2' }, [
    { type: 'user', id: other.id },
  ]);
  client = await panel.signedIn(user);
});
afterAll(async () => {
  await panel.close();
});

describe('GET /api/client/account/activity', () => {
  it('pages 25 at a time with the pagination meta; only entries about the caller', async () => {
    const res = await client.get('/api/client/account/activity');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0].object).toBe('activity_log');
    expect(res.body.meta.pagination).toEqual({
      total: 30,
      count: 25,
      per_page: 25,
      current_page: 1,
      total_pages: 2,
      links: { next: `${panel.url}/api/client/account/activity?page=2` },
    });
    expect(events(res)[0]).toBe('test:event.n00');
    expect(events(res)).not.toContain('test:not-mine');
    const page2 = await client.get('/api/client/account/activity?page=2');
    expect(page2.body.data).toHaveLength(5);
    expect(page2.body.meta.pagination.links).toEqual({
      previous: `${panel.url}/api/client/account/activity?page=1`,
    });
    const past = await client.get('/api/client/account/activity?page=9');
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.pagination).toMatchObject({ current_page: 9, count: 0, total: 30 });
  });

  it('caps per_page at 100, sorts by -timestamp and keeps the query in the links', async () => {
    const all = await client.get('/api/client/account/activity?per_page=500');
    expect(all.body.meta.pagination).toMatchObject({ per_page: 100, count: 30, total_pages: 1, links: {} });
    const newest = await client.get(
      '/api/client/account/activity?sort=-timestamp&per_page=2&include[]=actor',
    );
    expect(events(newest)).toEqual(['test:by-someone-else', 'user:api-key.create']);
    const next = new URL(newest.body.meta.pagination.links.next as string);
    expect(next.searchParams.get('sort')).toBe('-timestamp');
    expect(next.searchParams.get('per_page')).toBe('2');
    expect(next.searchParams.getAll('include[]')).toEqual(['actor']);
    expect(next.searchParams.get('page')).toBe('2');
  });

  it('filters by event (partial) and refuses unknown filters and sorts (400)', async () => {
    const res = await client.get('/api/client/account/activity?filter[event]=API-KEY');
    expect(events(res)).toEqual(['user:api-key.create']);
    const either = await client.get('/api/client/account/activity?filter[event]=n01,n02');
    expect(events(either)).toEqual(['test:event.n01', 'test:event.n02']);
    const bad = await client.get('/api/client/account/activity?filter[ip]=10');
    expectError(
      bad,
      400,
      'InvalidFilterQuery',
      'Requested filter(s) `ip` are not allowed. Allowed filter(s) are `event`.',
    );
    const sort = await client.get('/api/client/account/activity?sort=event');
    expect(sort.status).toBe(400);
    expect(firstError(sort).code).toBe('InvalidSortQuery');
  });

  it('renders entries: actor include, is_api, hidden addresses, counts', async () => {
    const res = await client.get('/api/client/account/activity?sort=-timestamp&per_page=3&include[]=actor');
    const [bySomeoneElse, apiKey, plain] = res.body.data as Entry[];
    expect(Object.keys(plain!.attributes)).toEqual([
      'id',
      'batch',
      'event',
      'is_api',
      'ip',
      'description',
      'properties',
      'has_additional_metadata',
      'timestamp',
      'relationships',
    ]);
    expect(plain!.attributes).toMatchObject({
      batch: null,
      is_api: false,
      ip: '10.1.1.1',
      properties: {},
      has_additional_metadata: false,
    });
    expect(plain!.attributes.id).toMatch(/^[0-9a-f]{40}$/u);
    expect(plain!.attributes.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/u);
    expect(plain!.attributes.relationships.actor).toEqual({
      object: 'user',
      attributes: expect.objectContaining({ uuid: user.uuid, username: user.username, '2fa_enabled': false }),
    });
    expect(apiKey!.attributes).toMatchObject({
      is_api: true,
      ip: '10.1.1.2',
      properties: { identifier: 'ptlc_abc', ip: '10.9.9.9', files: ['a', 'b', 'c'], count: 3 },
      has_additional_metadata: true,
    });
    // Someone else acted: their address is not shown to a non-admin.
    expect(bySomeoneElse!.attributes).toMatchObject({ ip: null, properties: { ip: '[hidden]' } });
    expect(bySomeoneElse!.attributes.relationships.actor.attributes.uuid).toBe(other.uuid);
    const withoutInclude = await client.get('/api/client/account/activity?per_page=1');
    expect(withoutInclude.body.data[0].attributes).not.toHaveProperty('relationships');
  });

  it('shows a root admin the actor address but not an address property; 401 to a guest', async () => {
    const admin = await panel.createUser({ admin: true });
    await panel.ctx.services.activity.log(
      'test:admin-view',
      { userId: other.id, apiKeyId: null, ip: '10.4.4.4' },
      [{ type: 'user', id: admin.id }],
      { ip: '10.5.5.5' },
    );
    const res = await (
      await panel.signedIn(admin)
    ).get('/api/client/account/activity?filter[event]=admin-view');
    expect(res.body.data[0].attributes).toMatchObject({ ip: '10.4.4.4', properties: { ip: '[hidden]' } });
    const actorless = await panel.ctx.services.activity.log(
      'test:system',
      { userId: null, apiKeyId: null, ip: null },
      [{ type: 'user', id: admin.id }],
    );
    expect(actorless).toBeUndefined();
    const sys = await (
      await panel.signedIn(admin)
    ).get('/api/client/account/activity?filter[event]=system&include=actor');
    expect(sys.body.data[0].attributes.relationships.actor).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    expect((await new TestClient(panel.url).get('/api/client/account/activity')).status).toBe(401);
  });
});
