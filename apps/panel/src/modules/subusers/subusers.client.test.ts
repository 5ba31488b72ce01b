import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, TestClient, type Res } from '../../test-support/client.ts';
import {
  activityAbout,
  addSubuser,
  nodeAndEgg,
  serverRow,
  subuserClient,
} from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { countingQueries } from '../../test-support/query-counter.ts';
import { mailText, startSmtpServer } from '../../test-support/smtp.ts';
import { clientUserAttributes } from '../users/users.presenter.ts';
import { SubusersRepository } from './subusers.repository.ts';

// The subuser API on the panel alone (reference §3.3 "Subusers"): the node of these servers has no
// daemon, so the token revocation after a change fails and is only logged (the daemon test file
// proves what it does). Mail goes through a real SMTP server.
let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let strangerClient: TestClient;
let server: Server;
let otherServer: Server;
let seq = 0;

const users = (s: Pick<Server, 'uuid_short'> = server) => `/api/client/servers/${s.uuid_short}/users`;
const one = (u: Pick<User, 'uuid'>, s: Pick<Server, 'uuid_short'> = server) => `${users(s)}/${u.uuid}`;
const newServer = () => serverRow(panel.ctx, node, egg, owner.id);
const uniqueEmail = (prefix = 'invitee') => `${prefix}${++seq}.${Date.now()}@example.com`;
const row = (s: Pick<Server, 'id'>, u: Pick<User, 'id'>) =>
  panel.ctx.db.db
    .selectFrom('subusers')
    .selectAll()
    .where('server_id', '=', s.id)
    .where('user_id', '=', u.id)
    .executeTakeFirst();
/** `field|rule|detail` of every entry of a 422 body. */
const failures = (res: Res) => {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
};
const FORBIDDEN = ['AccessDeniedHttpException', 'This action is unauthorized.'] as const;
const CANNOT_GRANT = [
  'HttpForbiddenException',
  'Cannot assign permissions to a subuser that your account does not actively possess.',
] as const;

async function mailsTo(email: string): Promise<string[]> {
  for (let i = 0; i < 100 && !smtp.mails.some((m) => m.to.includes(email)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return smtp.mails.filter((m) => m.to.includes(email)).map((m) => mailText(m.raw));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  panel = await startTestPanel({
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtp.port),
    MAIL_ENCRYPTION: 'none',
  });
  ({ node, egg } = await nodeAndEgg(panel.ctx, [46100, 46139]));
  owner = await panel.createUser({ username: 'owner' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await newServer();
  otherServer = await serverRow(panel.ctx, node, egg, stranger.id);
  ownerClient = await panel.signedIn(owner);
  strangerClient = await panel.signedIn(stranger);
});
afterAll(async () => {
  await panel?.close();
  await smtp?.close();
});

describe('GET /users', () => {
  it('lists the subusers in the order they were added, as server_subuser objects', async () => {
    const s = await newServer();
    const first = await panel.createUser();
    const second = await panel.createUser();
    await addSubuser(panel.ctx, s, first, ['control.console', 'websocket.connect']);
    await addSubuser(panel.ctx, s, second, ['file.read', 'websocket.connect'], { filePaths: ['/plugins'] });
    const res = await ownerClient.get(users(s));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      object: 'list',
      data: [
        {
          object: 'server_subuser',
          attributes: {
            ...clientUserAttributes(first),
            permissions: ['control.console', 'websocket.connect'],
          },
        },
        {
          object: 'server_subuser',
          attributes: {
            ...clientUserAttributes(second),
            permissions: ['file.read', 'websocket.connect'],
            file_paths: ['/plugins'],
          },
        },
      ],
    });
    // The reference's attributes in its order; `file_paths` only for a subuser limited to folders.
    expect(Object.keys(res.body.data[0].attributes)).toEqual([
      'uuid',
      'username',
      'email',
      'image',
      '2fa_enabled',
      'created_at',
      'permissions',
    ]);
    expect(res.body.data[0].attributes.image).toMatch(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{32}$/u);
  });

  it('answers 401 to a guest, 404 to a stranger and for an unknown server, 403 without user.read', async () => {
    expect((await new TestClient(panel.url).get(users())).status).toBe(401);
    expectError(
      await strangerClient.get(users()),
      404,
      'NotFoundHttpException',
      'The requested resource does not exist on this server.',
    );
    expectError(
      await ownerClient.get('/api/client/servers/00000000/users'),
      404,
      'NotFoundHttpException',
      'The requested resource could not be found on the server.',
    );
    const { client: noRead } = await subuserClient(panel, server, ['user.create', 'user.update']);
    expectError(await noRead.get(users()), 403, ...FORBIDDEN);
    const { client: reader } = await subuserClient(panel, server, ['user.read']);
    expect((await reader.get(users())).status).toBe(200);
  });

  it('answers 409 while the server is suspended', async () => {
    const s = await newServer();
    await panel.ctx.repositories.servers.update(s.id, { status: 'suspended' });
    expectError(
      await ownerClient.get(users(s)),
      409,
      'ServerStateConflictException',
      'This server is currently suspended and the functionality requested is unavailable.',
    );
  });

  it('reads 50 subusers with their accounts in one query', async () => {
    const s = await newServer();
    for (let i = 0; i < 50; i++) await addSubuser(panel.ctx, s, await panel.createUser(), ['file.read']);
    const counted = countingQueries(panel.ctx.db.db);
    const list = await new SubusersRepository(counted.db).listForServer(s.id);
    expect(list).toHaveLength(50);
    expect(counted.count()).toBe(1);
    expect(list.every(({ user, subuser }) => user.id === subuser.user_id && subuser.server_id === s.id)).toBe(
      true,
    );
    const res = await ownerClient.get(users(s));
    expect(res.body.data).toHaveLength(50);
  });
});

describe('GET /api/client/servers/{server}?include=subusers', () => {
  it('adds the subusers (a null resource without user.read) and the egg when asked', async () => {
    const s = await newServer();
    const { user: member, client: memberClient } = await subuserClient(panel, s, ['control.console']);
    const details = await ownerClient.get(`/api/client/servers/${s.uuid_short}?include=subusers,egg`);
    expect(details.status, details.text).toBe(200);
    const { relationships } = details.body.attributes;
    expect(relationships.subusers).toEqual({
      object: 'list',
      data: [
        {
          object: 'server_subuser',
          attributes: { ...clientUserAttributes(member), permissions: ['control.console'] },
        },
      ],
    });
    expect(relationships.egg).toEqual({ object: 'egg', attributes: { uuid: egg.uuid, name: egg.name } });
    expect(Object.keys(relationships)).toEqual(['allocations', 'variables', 'egg', 'subusers']);
    const refused = await memberClient.get(`/api/client/servers/${s.uuid_short}?include[]=subusers`);
    expect(refused.body.attributes.relationships.subusers).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    const plain = await ownerClient.get(`/api/client/servers/${s.uuid_short}?include=nonsense`);
    expect(Object.keys(plain.body.attributes.relationships)).toEqual(['allocations', 'variables']);
  });
});

describe('GET /users/{user}', () => {
  it('shows one subuser; 404 for a user who is not a subuser of this server; 403 for oneself', async () => {
    const { user: target } = await subuserClient(panel, server, ['control.start']);
    const res = await ownerClient.get(one(target));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'server_subuser',
      attributes: { ...clientUserAttributes(target), permissions: ['control.start'] },
    });
    const { user: elsewhere } = await subuserClient(panel, otherServer, ['control.start']);
    const notFound = 'The requested resource could not be found on the server.';
    expectError(await ownerClient.get(one(elsewhere)), 404, 'NotFoundHttpException', notFound);
    expectError(await ownerClient.get(one(owner)), 404, 'NotFoundHttpException', notFound);
    expectError(
      await ownerClient.get(`${users()}/00000000-0000-4000-8000-000000000000`),
      404,
      'NotFoundHttpException',
      notFound,
    );
    const { user: reader, client } = await subuserClient(panel, server, ['user.read']);
    expect((await client.get(one(target))).status).toBe(200);
    expectError(await client.get(one(reader)), 403, ...FORBIDDEN);
    const { client: noRead } = await subuserClient(panel, server, ['user.delete']);
    expectError(await noRead.get(one(target)), 403, ...FORBIDDEN);
    expect((await strangerClient.get(one(target))).status).toBe(404);
  });
});

describe('POST /users', () => {
  it('adds an existing account: catalogue keys in request order, no repeats, websocket.connect added', async () => {
    const s = await newServer();
    const invitee = await panel.createUser();
    const res = await ownerClient.post(users(s), {
      email: invitee.email.toUpperCase(),
      permissions: ['file.read', 'made.up', 'control.console', 'file.read', '*'],
    });
    expect(res.status, res.text).toBe(200);
    const permissions = ['file.read', 'control.console', 'websocket.connect'];
    expect(res.body).toEqual({
      object: 'server_subuser',
      attributes: { ...clientUserAttributes(invitee), permissions },
    });
    expect(JSON.parse((await row(s, invitee))!.permissions)).toEqual(permissions);
    expect((await row(s, invitee))!.file_paths).toBeNull();
    expect(await activityAbout(panel.ctx, { type: 'server', id: s.id })).toEqual([
      {
        event: 'server:subuser.create',
        actor: owner.id,
        ip: '127.0.0.1',
        timestamp: expect.any(String),
        properties: { email: invitee.email, permissions },
        subjects: [`server:${s.id}`, `user:${invitee.id}`],
      },
    ]);
    // Nobody is mailed about an account they already have.
    expect(smtp.mails.some((m) => m.to.includes(invitee.email))).toBe(false);
  });

  it('makes an account for a new email and mails a link that sets its password', async () => {
    const s = await newServer();
    const email = `New.Person+tag${++seq}@example.com`;
    const res = await ownerClient.post(users(s), { email, permissions: ['control.console'] });
    expect(res.status, res.text).toBe(200);
    const created = await panel.ctx.repositories.users.findByEmail(email);
    expect(created).toMatchObject({
      email: email.toLowerCase(),
      name_first: 'Server',
      name_last: 'Subuser',
      root_admin: 0,
    });
    // The local part without characters outside [A-Za-z0-9_.-], then three random characters.
    expect(created!.username).toMatch(new RegExp(`^new\\.persontag${seq}[a-z0-9]{3}$`, 'u'));
    expect(res.body.attributes).toMatchObject({ uuid: created!.uuid, username: created!.username });

    const [text] = await mailsTo(email.toLowerCase());
    expect(text).toContain(`Hello ${created!.username},`);
    expect(text).not.toContain('Hello Server');
    expect(text).toContain('An account was created for you');
    expect(text).toContain(`owner gave you access to the server "${s.name}".`);
    const link = /\/auth\/password\/reset\/([A-Za-z0-9]+)\?email=([^\s]+)/u.exec(text ?? '');
    expect(link).not.toBeNull();
    const guest = new TestClient(panel.url);
    await guest.get('/sanctum/csrf-cookie');
    const reset = await guest.post('/auth/password/reset', {
      token: link![1],
      email: decodeURIComponent(link![2]!),
      password: 'chosen by the invitee',
      password_confirmation: 'chosen by the invitee',
    });
    expect(reset.status, reset.text).toBe(200);
    const invitee = new TestClient(panel.url);
    expect((await invitee.login(email, 'chosen by the invitee')).status).toBe(200);
    const details = await invitee.get(`/api/client/servers/${s.uuid_short}`);
    expect(details.body.meta).toEqual({
      is_server_owner: false,
      user_permissions: ['control.console', 'websocket.connect'],
    });
  });

  it('gives two simultaneous invitations of one new email one account and one subuser', async () => {
    const s = await newServer();
    const email = uniqueEmail('twice');
    const answers = await Promise.all(
      [0, 1, 2].map(() => ownerClient.post(users(s), { email, permissions: ['control.console'] })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((r) => r.status === 400)) {
      expectError(
        refused,
        400,
        'ServerSubuserExistsException',
        'A user with that email address is already assigned as a subuser for this server.',
      );
    }
    const accounts = await panel.ctx.db.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(accounts).toHaveLength(1);
    expect(await panel.ctx.repositories.subusers.listForServer(s.id)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('keeps folders given in file_paths (our extension); an empty list is the whole server', async () => {
    const s = await newServer();
    const limited = await panel.createUser();
    const res = await ownerClient.post(users(s), {
      email: limited.email,
      permissions: ['file.read'],
      file_paths: ['/plugins', '/world/region', '/plugins'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.file_paths).toEqual(['/plugins', '/world/region']);
    expect(JSON.parse((await row(s, limited))!.file_paths!)).toEqual(['/plugins', '/world/region']);
    const whole = await panel.createUser();
    const all = await ownerClient.post(users(s), {
      email: whole.email,
      permissions: ['file.read'],
      file_paths: [],
    });
    expect(all.body.attributes).not.toHaveProperty('file_paths');
    expect((await row(s, whole))!.file_paths).toBeNull();
  });

  it('answers 422 per bad field and stores nothing', async () => {
    const s = await newServer();
    expect(failures(await ownerClient.post(users(s), {}))).toEqual([
      'email|required|The email field is required.',
      'permissions|required|The permissions field is required.',
    ]);
    expect(failures(await ownerClient.post(users(s), { email: 'not-an-email', permissions: 'x' }))).toEqual([
      'email|email|The email must be a valid email address.',
      'permissions|array|The permissions must be an array.',
    ]);
    const long = `${'a'.repeat(180)}@example.com`;
    expect(failures(await ownerClient.post(users(s), { email: long, permissions: [] }))).toEqual([
      'email|between|The email must be between 1 and 191 characters.',
      'permissions|required|The permissions field is required.',
    ]);
    expect(
      failures(await ownerClient.post(users(s), { email: uniqueEmail(), permissions: ['file.read', 5] })),
    ).toEqual(['permissions.1|string|The permissions.1 must be a string.']);
    const badFolders = ['/ok', 'relative', '/a/../b', '/trailing/', 7, `/${'x'.repeat(255)}`];
    expect(
      failures(
        await ownerClient.post(users(s), {
          email: uniqueEmail(),
          permissions: ['file.read'],
          file_paths: badFolders,
        }),
      ),
    ).toEqual([
      'file_paths.1|folder_path|The file paths.1 must be a folder from the server root, such as /plugins: a leading slash, no trailing slash, no empty, "." or ".." parts.',
      'file_paths.2|folder_path|The file paths.2 must be a folder from the server root, such as /plugins: a leading slash, no trailing slash, no empty, "." or ".." parts.',
      'file_paths.3|folder_path|The file paths.3 must be a folder from the server root, such as /plugins: a leading slash, no trailing slash, no empty, "." or ".." parts.',
      'file_paths.4|string|The file paths.4 must be a string.',
      'file_paths.5|max|The file paths.5 may not be greater than 255 characters.',
    ]);
    const tooMany = Array.from({ length: 21 }, (_, i) => `/d${i}`);
    expect(
      failures(
        await ownerClient.post(users(s), {
          email: uniqueEmail(),
          permissions: ['file.read'],
          file_paths: tooMany,
        }),
      ),
    ).toEqual(['file_paths|max|The file paths may not have more than 20 items.']);
    expect(await panel.ctx.repositories.subusers.listForServer(s.id)).toEqual([]);
  });

  it('refuses the owner (400 UserIsServerOwnerException) and an existing subuser (400 ServerSubuserExistsException)', async () => {
    const s = await newServer();
    expectError(
      await ownerClient.post(users(s), { email: owner.email, permissions: ['control.console'] }),
      400,
      'UserIsServerOwnerException',
      'You cannot add the server owner as a subuser for this server.',
    );
    const member = await panel.createUser();
    await addSubuser(panel.ctx, s, member, ['control.start']);
    expectError(
      await ownerClient.post(users(s), { email: member.email, permissions: ['control.console'] }),
      400,
      'ServerSubuserExistsException',
      'A user with that email address is already assigned as a subuser for this server.',
    );
    expect(JSON.parse((await row(s, member))!.permissions)).toEqual(['control.start']);
  });

  it('lets a subuser grant only what they hold (403 otherwise, checked before validation); 403 without user.create', async () => {
    const s = await newServer();
    const held = ['user.create', 'control.console', 'file.read'];
    const { client } = await subuserClient(panel, s, held);
    const target = await panel.createUser();
    for (const permissions of [['control.start'], ['control.console', 'made.up'], ['*']]) {
      expectError(await client.post(users(s), { email: target.email, permissions }), 403, ...CANNOT_GRANT);
    }
    // The grant check comes first, as the original's request authorisation does.
    expectError(
      await client.post(users(s), { email: 'bad', permissions: ['control.stop'] }),
      403,
      ...CANNOT_GRANT,
    );
    expect(await row(s, target)).toBeUndefined();
    const ok = await client.post(users(s), { email: target.email, permissions: ['control.console'] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.attributes.permissions).toEqual(['control.console', 'websocket.connect']);

    const { client: noCreate } = await subuserClient(panel, s, ['user.read', 'user.update']);
    expectError(
      await noCreate.post(users(s), { email: uniqueEmail(), permissions: ['user.read'] }),
      403,
      ...FORBIDDEN,
    );
    // Root admins, like owners, may grant anything.
    const admin = await panel.signedIn(await panel.createUser({ admin: true }));
    const granted = await admin.post(users(s), { email: uniqueEmail(), permissions: ['settings.reinstall'] });
    expect(granted.status, granted.text).toBe(200);
  });

  it('lets a subuser limited to folders give file permissions only inside their folders', async () => {
    const s = await newServer();
    const { client } = await subuserClient(panel, s, ['user.create', 'file.read', 'control.console'], {
      filePaths: ['/plugins'],
    });
    const attempt = (body: Record<string, unknown>) =>
      client.post(users(s), { email: uniqueEmail('folder'), permissions: ['file.read'], ...body });
    for (const file_paths of [undefined, null, [], ['/world'], ['/plugins', '/world'], ['/pluginsX']]) {
      expectError(await attempt(file_paths === undefined ? {} : { file_paths }), 403, ...CANNOT_GRANT);
    }
    expect((await attempt({ file_paths: ['/plugins'] })).status).toBe(200);
    expect((await attempt({ file_paths: ['/plugins/essentials'] })).status).toBe(200);
    // Without any file permission the folders do not matter.
    const noFiles = await client.post(users(s), { email: uniqueEmail(), permissions: ['control.console'] });
    expect(noFiles.status, noFiles.text).toBe(200);
  });
});

describe('POST /users/{user}', () => {
  it('replaces the permissions, keeps folders unless file_paths is sent, and records old and new', async () => {
    const s = await newServer();
    const target = await panel.createUser();
    await addSubuser(panel.ctx, s, target, ['control.console', 'websocket.connect'], { filePaths: ['/a'] });
    const res = await ownerClient.post(one(target, s), { permissions: ['control.start', 'bogus'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      object: 'server_subuser',
      attributes: {
        ...clientUserAttributes(target),
        permissions: ['control.start', 'websocket.connect'],
        file_paths: ['/a'],
      },
    });
    const moved = await ownerClient.post(one(target, s), { permissions: ['file.read'], file_paths: ['/b'] });
    expect(moved.body.attributes.file_paths).toEqual(['/b']);
    const whole = await ownerClient.post(one(target, s), { permissions: ['file.read'], file_paths: null });
    expect(whole.body.attributes).not.toHaveProperty('file_paths');
    expect((await row(s, target))!.file_paths).toBeNull();
    const updates = (await activityAbout(panel.ctx, { type: 'server', id: s.id })).filter(
      (e) => e.event === 'server:subuser.update',
    );
    expect(updates.map((e) => e.properties)).toEqual([
      {
        email: target.email,
        old: ['control.console', 'websocket.connect'],
        new: ['control.start', 'websocket.connect'],
        file_paths: ['/a'],
        revoked: true,
      },
      {
        email: target.email,
        old: ['control.start', 'websocket.connect'],
        new: ['file.read', 'websocket.connect'],
        file_paths: ['/b'],
        revoked: true,
      },
      {
        email: target.email,
        old: ['file.read', 'websocket.connect'],
        new: ['file.read', 'websocket.connect'],
        file_paths: null,
        revoked: true,
      },
    ]);
    expect(updates[0]!.subjects).toEqual([`server:${s.id}`, `user:${target.id}`]);
    // The same set in another order is no change: nothing to revoke.
    await ownerClient.post(one(target, s), { permissions: ['websocket.connect', 'file.read'] });
    const last = (await activityAbout(panel.ctx, { type: 'server', id: s.id })).at(-1);
    expect(last?.properties).toEqual({
      email: target.email,
      old: ['file.read', 'websocket.connect'],
      new: ['websocket.connect', 'file.read'],
      revoked: false,
    });
  });

  it('refuses oneself, more than one holds, missing user.update (403), bad input (422), unknown users (404)', async () => {
    const s = await newServer();
    const target = await panel.createUser();
    await addSubuser(panel.ctx, s, target, ['control.console']);
    const { user: editor, client } = await subuserClient(panel, s, [
      'user.update',
      'control.console',
      'control.start',
    ]);
    expectError(await client.post(one(editor, s), { permissions: ['control.console'] }), 403, ...FORBIDDEN);
    expectError(await client.post(one(target, s), { permissions: ['control.stop'] }), 403, ...CANNOT_GRANT);
    expect(failures(await client.post(one(target, s), {}))).toEqual([
      'permissions|required|The permissions field is required.',
    ]);
    expect(
      failures(await ownerClient.post(one(target, s), { permissions: ['file.read'], file_paths: ['x'] })),
    ).toEqual([
      'file_paths.0|folder_path|The file paths.0 must be a folder from the server root, such as /plugins: a leading slash, no trailing slash, no empty, "." or ".." parts.',
    ]);
    expect(JSON.parse((await row(s, target))!.permissions)).toEqual(['control.console']);
    const ok = await client.post(one(target, s), { permissions: ['control.start'] });
    expect(ok.status).toBe(200);
    const { client: noUpdate } = await subuserClient(panel, s, ['user.read']);
    expectError(await noUpdate.post(one(target, s), { permissions: ['user.read'] }), 403, ...FORBIDDEN);
    expect((await ownerClient.post(one(owner, s), { permissions: ['file.read'] })).status).toBe(404);
    expect((await strangerClient.post(one(target, s), { permissions: ['file.read'] })).status).toBe(404);
  });
});

describe('DELETE /users/{user}', () => {
  it('removes the subuser, not the account; the user loses the server', async () => {
    const s = await newServer();
    const { user: target, client: targetClient } = await subuserClient(panel, s, ['control.console']);
    expect((await targetClient.get(`/api/client/servers/${s.uuid_short}`)).status).toBe(200);
    const res = await ownerClient.delete(one(target, s));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await row(s, target)).toBeUndefined();
    expect(await panel.ctx.repositories.users.findById(target.id)).toBeDefined();
    expect((await targetClient.get(`/api/client/servers/${s.uuid_short}`)).status).toBe(404);
    const [entry] = await activityAbout(panel.ctx, { type: 'server', id: s.id });
    expect(entry).toMatchObject({
      event: 'server:subuser.delete',
      actor: owner.id,
      properties: { email: target.email, revoked: true },
      subjects: [`server:${s.id}`, `user:${target.id}`],
    });
    expect((await ownerClient.delete(one(target, s))).status).toBe(404);
  });

  it('refuses oneself and callers without user.delete (403)', async () => {
    const s = await newServer();
    const target = await panel.createUser();
    await addSubuser(panel.ctx, s, target, ['control.console']);
    const { user: self, client } = await subuserClient(panel, s, ['user.delete']);
    expectError(await client.delete(one(self, s)), 403, ...FORBIDDEN);
    expect(await row(s, self)).toBeDefined();
    const { client: noDelete } = await subuserClient(panel, s, ['user.read', 'user.update']);
    expectError(await noDelete.delete(one(target, s)), 403, ...FORBIDDEN);
    expect((await client.delete(one(target, s))).status).toBe(204);
    expect((await new TestClient(panel.url).delete(one(self, s))).status).toBe(401);
  });
});
