import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node, Server, User } from '../../db/types.ts';
import { expectError, TestClient, type Res } from '../../test-support/client.ts';
import {
  addSubuser,
  nodeAndEgg,
  remoteClient,
  serverRow,
  subuserClient,
} from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// GET /api/client/servers/{server}/activity (reference §3.3): the server's entries, with the
// account list's query rules; APP_ACTIVITY_HIDE_ADMIN on a second panel.
let panel: TestPanel;
let hiding: TestPanel;
let node: Node;
let owner: User;
let ownerClient: TestClient;
let server: Server;

type Entry = { attributes: Record<string, any> };
const events = (res: Res) => (res.body.data as Entry[]).map((e) => e.attributes.event as string);
const activity = (s: Pick<Server, 'uuid_short'> = server, query = '') =>
  `/api/client/servers/${s.uuid_short}/activity${query}`;
const log = (
  on: TestPanel,
  s: Pick<Server, 'id'>,
  event: string,
  actor: Pick<User, 'id'> | null,
  properties: Record<string, unknown> = {},
) =>
  on.ctx.services.activity.log(
    event,
    { userId: actor?.id ?? null, apiKeyId: null, ip: '10.0.0.9' },
    [{ type: 'server', id: s.id }],
    properties,
  );

beforeAll(async () => {
  [panel, hiding] = await Promise.all([
    startTestPanel(),
    startTestPanel({ APP_ACTIVITY_HIDE_ADMIN: 'true' }),
  ]);
  const setup = await nodeAndEgg(panel.ctx, [46200, 46209]);
  node = setup.node;
  owner = await panel.createUser({ username: 'owner' });
  ownerClient = await panel.signedIn(owner);
  server = await serverRow(panel.ctx, node, setup.egg, owner.id);
  for (let i = 0; i < 27; i++) {
    await log(panel, server, `server:test.n${String(i).padStart(2, '0')}`, owner);
  }
  await log(panel, server, 'server:file.upload', owner, { files: ['hidden.txt'] });
  const other = await serverRow(panel.ctx, node, setup.egg, owner.id);
  await log(panel, other, 'server:elsewhere', owner);
});
afterAll(async () => {
  await Promise.all([panel?.close(), hiding?.close()]);
});

describe('GET /api/client/servers/{server}/activity', () => {
  it('pages 25 at a time, only this server, without upload events; filter, sort and links keep the query', async () => {
    const res = await ownerClient.get(activity());
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0].object).toBe('activity_log');
    expect(res.body.meta.pagination).toEqual({
      total: 27,
      count: 25,
      per_page: 25,
      current_page: 1,
      total_pages: 2,
      links: { next: `${panel.url}${activity()}?page=2` },
    });
    expect(events(res)[0]).toBe('server:test.n00');
    const all = await ownerClient.get(activity(server, '?per_page=500'));
    expect(events(all)).not.toContain('server:elsewhere');
    expect(events(all)).not.toContain('server:file.upload');
    const newest = await ownerClient.get(activity(server, '?sort=-timestamp&per_page=2&include[]=actor'));
    expect(events(newest)).toEqual(['server:test.n26', 'server:test.n25']);
    const next = new URL(newest.body.meta.pagination.links.next as string);
    expect(next.searchParams.get('sort')).toBe('-timestamp');
    expect(next.searchParams.getAll('include[]')).toEqual(['actor']);
    expect(newest.body.data[0].attributes.relationships.actor.attributes.uuid).toBe(owner.uuid);
    expect(events(await ownerClient.get(activity(server, '?filter[event]=N01,n02')))).toEqual([
      'server:test.n01',
      'server:test.n02',
    ]);
    expectError(
      await ownerClient.get(activity(server, '?filter[ip]=10')),
      400,
      'InvalidFilterQuery',
      'Requested filter(s) `ip` are not allowed. Allowed filter(s) are `event`.',
    );
    expectError(
      await ownerClient.get(activity(server, '?sort=event')),
      400,
      'InvalidSortQuery',
      'Requested sort(s) `event` is not allowed. Allowed sort(s) are `timestamp`.',
    );
  });

  it('needs activity.read (403), server access (404) and a session or key (401)', async () => {
    const { client: without } = await subuserClient(panel, server, ['control.console']);
    expectError(
      await without.get(activity()),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    const { client: reader } = await subuserClient(panel, server, ['activity.read']);
    const res = await reader.get(activity(server, '?per_page=1'));
    expect(res.status).toBe(200);
    // Someone else's address is not shown to a subuser.
    expect(res.body.data[0].attributes.ip).toBeNull();
    expect((await ownerClient.get(activity(server, '?per_page=1'))).body.data[0].attributes.ip).toBe(
      '10.0.0.9',
    );
    const stranger = await panel.signedIn(await panel.createUser());
    expectError(
      await stranger.get(activity()),
      404,
      'NotFoundHttpException',
      'The requested resource does not exist on this server.',
    );
    expect((await new TestClient(panel.url).get(activity())).status).toBe(401);
  });

  it("lists the daemon's SFTP batches with their user, address, files and time", async () => {
    const { user } = await subuserClient(panel, server, ['file.sftp', 'file.create']);
    const at = '2026-01-02T03:04:05.000Z';
    const sent = await remoteClient(panel, node).post('/api/remote/activity', {
      data: [
        {
          user: user.uuid,
          server: server.uuid,
          event: 'server:sftp.write',
          metadata: { files: ['/a.txt', '/b.txt'] },
          ip: '192.0.2.7',
          timestamp: at,
        },
      ],
    });
    expect(sent.status, sent.text).toBe(204);
    const res = await ownerClient.get(activity(server, '?filter[event]=sftp&include=actor'));
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].attributes).toMatchObject({
      event: 'server:sftp.write',
      ip: null,
      properties: { files: ['/a.txt', '/b.txt'], count: 2 },
      timestamp: '2026-01-02T03:04:05+00:00',
      relationships: { actor: { object: 'user', attributes: { uuid: user.uuid } } },
    });
  });

  it('shows root admins who have no place on the server unless APP_ACTIVITY_HIDE_ADMIN is set', async () => {
    const setup = await nodeAndEgg(hiding.ctx, [46220, 46225]);
    const hOwner = await hiding.createUser();
    const s = await serverRow(hiding.ctx, setup.node, setup.egg, hOwner.id);
    const outsider = await hiding.createUser({ admin: true });
    const memberAdmin = await hiding.createUser({ admin: true });
    await addSubuser(hiding.ctx, s, memberAdmin, ['control.console']);
    const ownerAdmin = await hiding.createUser({ admin: true });
    const owned = await serverRow(hiding.ctx, setup.node, setup.egg, ownerAdmin.id);
    await log(hiding, s, 'server:by.owner', hOwner);
    await log(hiding, s, 'server:by.outside-admin', outsider);
    await log(hiding, s, 'server:by.member-admin', memberAdmin);
    await log(hiding, s, 'server:by.daemon', null);
    await log(hiding, owned, 'server:by.owner-admin', ownerAdmin);
    const seen = await (await hiding.signedIn(hOwner)).get(activity(s));
    expect(events(seen)).toEqual(['server:by.owner', 'server:by.member-admin', 'server:by.daemon']);
    expect(seen.body.meta.pagination.total).toBe(3);
    const adminView = await (await hiding.signedIn(outsider)).get(activity(owned));
    expect(events(adminView)).toEqual(['server:by.owner-admin']);

    // Without the setting, the same kind of entry is listed.
    const admin = await panel.createUser({ admin: true });
    await log(panel, server, 'server:by.outside-admin', admin);
    expect(events(await ownerClient.get(activity(server, '?filter[event]=outside-admin')))).toEqual([
      'server:by.outside-admin',
    ]);
  });
});
