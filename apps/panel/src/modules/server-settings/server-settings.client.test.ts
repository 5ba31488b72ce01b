import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { firstError, TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// POST /settings/rename and the refusals of POST /settings/reinstall, on the panel alone: the node
// of these servers has no daemon (the reinstall itself: server-settings.daemon.test.ts).
let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let renamerClient: TestClient;
let consoleClient: TestClient;
let strangerClient: TestClient;
let server: Server;

const base = () => `/api/client/servers/${server.uuid_short}`;
const stored = () =>
  panel.ctx.db.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
/** This server's activity entries, oldest first. */
const activity = async (event?: string) => {
  let q = panel.ctx.db.db
    .selectFrom('activity_logs')
    .innerJoin('activity_log_subjects as s', 's.activity_log_id', 'activity_logs.id')
    .select(['event', 'properties', 'actor_id'])
    .where('s.subject_type', '=', 'server')
    .where('s.subject_id', '=', server.id);
  if (event) q = q.where('event', '=', event);
  return (await q.orderBy('activity_logs.id').execute()).map((r) => ({
    event: r.event,
    actor: r.actor_id,
    properties: JSON.parse(r.properties) as unknown,
  }));
};
const setServer = (values: Partial<Server>) => panel.ctx.repositories.servers.update(server.id, values);

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [44200, 44209]));
  owner = await panel.createUser({ username: 'owner' });
  const renamer = await panel.createUser({ username: 'renamer' });
  const consoleUser = await panel.createUser({ username: 'console' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id, {
    name: 'Survival',
    description: 'Our first world',
  });
  await addSubuser(panel.ctx, server, renamer, ['settings.rename']);
  await addSubuser(panel.ctx, server, consoleUser, ['websocket.connect', 'control.console', 'settings.reinstall']);
  // The reinstall refusals below are decided before the daemon would be asked; the console user
  // has settings.reinstall but not settings.rename, the renamer the other way round.
  ownerClient = await panel.signedIn(owner);
  renamerClient = await panel.signedIn(renamer);
  consoleClient = await panel.signedIn(consoleUser);
  strangerClient = await panel.signedIn(stranger);
});
afterAll(async () => {
  await panel.close();
});
beforeEach(async () => {
  await setServer({ name: 'Survival', description: 'Our first world', status: null });
  await panel.ctx.db.db.updateTable('nodes').set({ maintenance_mode: 0 }).where('id', '=', node.id).execute();
  await panel.ctx.db.db.deleteFrom('activity_log_subjects').execute();
  await panel.ctx.db.db.deleteFrom('activity_logs').execute();
});

describe('POST /settings/rename', () => {
  it('renames, leaving the description alone when the key is absent, and logs old and new', async () => {
    const res = await ownerClient.post(`${base()}/settings/rename`, { name: '  Creative  ' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await stored()).toMatchObject({ name: 'Creative', description: 'Our first world' });
    expect(await activity()).toEqual([
      { event: 'server:settings.rename', actor: owner.id, properties: { old: 'Survival', new: 'Creative' } },
    ]);
    // The client API shows the new name.
    expect((await ownerClient.get(base())).body.attributes).toMatchObject({
      name: 'Creative',
      description: 'Our first world',
    });
  });

  it('clears the description when it is sent as null, empty or blank', async () => {
    for (const description of [null, '', '   ']) {
      await setServer({ description: 'Our first world' });
      const res = await ownerClient.post(`${base()}/settings/rename`, { name: 'Survival', description });
      expect(res.status, JSON.stringify(description)).toBe(204);
      expect((await stored()).description).toBe('');
    }
    // Only the description changed: no rename entries, one description entry per change.
    expect(await activity()).toEqual(
      Array.from({ length: 3 }, () => ({
        event: 'server:settings.description',
        actor: owner.id,
        properties: { old: 'Our first world', new: '' },
      })),
    );
  });

  it('changes both, with one entry each, and writes nothing when nothing changed', async () => {
    const body = { name: 'Hardcore', description: 'One life only' };
    expect((await ownerClient.post(`${base()}/settings/rename`, body)).status).toBe(204);
    expect(await stored()).toMatchObject(body);
    expect(await activity()).toEqual([
      { event: 'server:settings.rename', actor: owner.id, properties: { old: 'Survival', new: 'Hardcore' } },
      {
        event: 'server:settings.description',
        actor: owner.id,
        properties: { old: 'Our first world', new: 'One life only' },
      },
    ]);
    const before = (await stored()).updated_at;
    expect((await ownerClient.post(`${base()}/settings/rename`, body)).status).toBe(204);
    expect((await ownerClient.post(`${base()}/settings/rename`, { name: 'Hardcore' })).status).toBe(204);
    expect(await activity()).toHaveLength(2);
    expect((await stored()).updated_at).toBe(before);
  });

  it('accepts a name of exactly 191 characters (counted as characters, not bytes)', async () => {
    const name = 'é'.repeat(190) + '🎮';
    expect((await ownerClient.post(`${base()}/settings/rename`, { name })).status).toBe(204);
    expect((await stored()).name).toBe(name);
  });

  it('answers 422 with the validation body for a missing, empty or too long name, and changes nothing', async () => {
    const required = {
      errors: [
        {
          code: 'ValidationException',
          status: '422',
          detail: 'The name field is required.',
          meta: { source_field: 'name', rule: 'required' },
        },
      ],
    };
    const cases: [unknown, unknown][] = [
      [{}, required],
      [{ description: 'only this' }, required],
      [{ name: null }, required],
      [{ name: '' }, required],
      [{ name: '   ' }, required],
      [
        { name: 'x'.repeat(192), description: 'changed' },
        {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The name may not be greater than 191 characters.',
              meta: { source_field: 'name', rule: 'max' },
            },
          ],
        },
      ],
      [
        { name: 42, description: 7 },
        {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The name must be a string.',
              meta: { source_field: 'name', rule: 'string' },
            },
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The description must be a string.',
              meta: { source_field: 'description', rule: 'string' },
            },
          ],
        },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await ownerClient.post(`${base()}/settings/rename`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual(expected);
    }
    expect(await stored()).toMatchObject({ name: 'Survival', description: 'Our first world' });
    expect(await activity()).toEqual([]);
  });

  it('lets a subuser with settings.rename rename', async () => {
    const res = await renamerClient.post(`${base()}/settings/rename`, { name: 'Shared', description: null });
    expect(res.status).toBe(204);
    expect(await stored()).toMatchObject({ name: 'Shared', description: '' });
    expect((await activity()).map((e) => e.event)).toEqual([
      'server:settings.rename',
      'server:settings.description',
    ]);
  });

  it('refuses a subuser without settings.rename with 403, before validation, and changes nothing', async () => {
    for (const body of [{ name: 'Mine now', description: 'x' }, { name: '' }]) {
      const res = await consoleClient.post(`${base()}/settings/rename`, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          { code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' },
        ],
      });
    }
    expect(await stored()).toMatchObject({ name: 'Survival', description: 'Our first world' });
    expect(await activity()).toEqual([]);
  });

  it('answers 404 to users with no relation to the server and for unknown servers', async () => {
    const res = await strangerClient.post(`${base()}/settings/rename`, { name: 'Taken' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errors: [
        {
          code: 'NotFoundHttpException',
          status: '404',
          detail: 'The requested resource does not exist on this server.',
        },
      ],
    });
    const unknown = await ownerClient.post('/api/client/servers/00000000/settings/rename', { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).detail).toBe('The requested resource could not be found on the server.');
    expect((await stored()).name).toBe('Survival');
    expect(await activity()).toEqual([]);
  });

  it('answers 409 while the server is suspended, before permission and input checks', async () => {
    await setServer({ status: 'suspended' });
    for (const [client, body] of [
      [ownerClient, { name: 'Renamed' }],
      [ownerClient, { name: '' }],
      [consoleClient, { name: 'Renamed' }],
    ] as const) {
      const res = await client.post(`${base()}/settings/rename`, body);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        errors: [
          {
            code: 'ServerStateConflictException',
            status: '409',
            detail: 'This server is currently suspended and the functionality requested is unavailable.',
          },
        ],
      });
    }
    expect((await stored()).name).toBe('Survival');
  });

  it('needs authentication', async () => {
    const res = await new TestClient(panel.url).post(`${base()}/settings/rename`, { name: 'x' });
    expect(res.status).toBe(401);
    expect((await stored()).name).toBe('Survival');
  });
});

describe('POST /settings/reinstall (refusals; the reinstall itself runs against a daemon elsewhere)', () => {
  it('refuses a subuser without settings.reinstall with 403 and changes nothing', async () => {
    const res = await renamerClient.post(`${base()}/settings/reinstall`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'This action is unauthorized.' }],
    });
    expect((await stored()).status).toBeNull();
    expect(await activity()).toEqual([]);
  });

  it('answers 409 with the reason while the server is suspended, installing, restoring or its node in maintenance', async () => {
    const cases: [string | null, boolean, string][] = [
      [
        'suspended',
        false,
        'This server is currently suspended and the functionality requested is unavailable.',
      ],
      [
        'installing',
        false,
        'This server has not yet completed its installation process, please try again later.',
      ],
      [
        'install_failed',
        false,
        'This server has not yet completed its installation process, please try again later.',
      ],
      [
        'restoring_backup',
        false,
        'This server is currently restoring from a backup, please try again later.',
      ],
      [
        null,
        true,
        'The node of this server is currently under maintenance and the functionality requested is unavailable.',
      ],
    ];
    for (const [status, maintenance, detail] of cases) {
      await setServer({ status });
      await panel.ctx.db.db
        .updateTable('nodes')
        .set({ maintenance_mode: maintenance ? 1 : 0 })
        .where('id', '=', node.id)
        .execute();
      for (const client of [ownerClient, renamerClient]) {
        const res = await client.post(`${base()}/settings/reinstall`);
        expect(res.status, `${status} ${maintenance}`).toBe(409);
        expect(res.body).toEqual({
          errors: [{ code: 'ServerStateConflictException', status: '409', detail }],
        });
      }
      expect((await stored()).status).toBe(status);
    }
    expect(await activity()).toEqual([]);
  });

  it('puts the status back and logs nothing when the daemon cannot be reached (reinstall_failed is no conflict)', async () => {
    await setServer({ status: 'reinstall_failed' });
    const res = await consoleClient.post(`${base()}/settings/reinstall`);
    expect(res.status).toBe(504);
    expect(firstError(res).code).toBe('DaemonConnectionException');
    expect((await stored()).status).toBe('reinstall_failed');
    expect(await activity()).toEqual([]);
  });

  it('answers 404 to users with no relation to the server', async () => {
    const res = await strangerClient.post(`${base()}/settings/reinstall`);
    expect(res.status).toBe(404);
    expect(firstError(res).detail).toBe('The requested resource does not exist on this server.');
  });
});

describe('other methods', () => {
  it('answers another method 405 with Allow, GET included', async () => {
    for (const [method, path] of [
      ['GET', 'settings/rename'],
      ['PUT', 'settings/rename'],
      ['DELETE', 'settings/reinstall'],
      ['GET', 'settings/reinstall'],
    ] as const) {
      const res = await ownerClient.request(method, `${base()}/${path}`, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body).toEqual({
        errors: [
          {
            code: 'MethodNotAllowedHttpException',
            status: '405',
            detail: `The ${method} method is not supported for route ${base().slice(1)}/${path}. Supported methods: POST.`,
          },
        ],
      });
    }
    // The docker image setting beside them is PUT only.
    const image = await ownerClient.post(`${base()}/settings/docker-image`, { docker_image: 'x' });
    expect(image.status).toBe(405);
    expect(image.headers.get('allow')).toBe('PUT');
    expect(await stored()).toMatchObject({ name: 'Survival', status: null });
  });
});
