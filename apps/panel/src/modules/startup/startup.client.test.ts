import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, firstError, type TestClient } from '../../test-support/client.ts';
import { addSubuser, nodeAndEgg, serverRow, subuserClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// GET /startup, PUT /startup/variable and PUT /settings/docker-image (no daemon is involved).
const IMAGES = { 'Java 17': 'ghcr.io/talon/java:17', 'Java 21': 'ghcr.io/talon/java:21' };

let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let readerClient: TestClient;
let strangerClient: TestClient;
let server: Server;

const base = () => `/api/client/servers/${server.uuid_short}`;
const stored = () =>
  panel.ctx.db.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
const storedValue = async (env: string) => {
  const values = await panel.ctx.repositories.servers.variableValues(server.id, egg.id);
  return values.find((v) => v.variable.env_variable === env)?.value;
};
const activity = (event: string) =>
  panel.ctx.db.db.selectFrom('activity_logs').selectAll().where('event', '=', event).execute();

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [44100, 44109]));
  await panel.ctx.db.db
    .updateTable('eggs')
    .set({ docker_images: JSON.stringify(IMAGES) })
    .where('id', '=', egg.id)
    .execute();
  // MOTD becomes invisible to users, so it must never be listed or editable.
  await panel.ctx.db.db
    .updateTable('egg_variables')
    .set({ user_viewable: 0 })
    .where('egg_id', '=', egg.id)
    .where('env_variable', '=', 'MOTD')
    .execute();
  owner = await panel.createUser({ username: 'owner' });
  const reader = await panel.createUser({ username: 'reader' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id, {
    image: IMAGES['Java 17'],
    startup: 'java -Xmx{{SERVER_MEMORY}}M -jar server.jar --players {{MAX_PLAYERS}} --motd "{{MOTD}}"',
  });
  await addSubuser(panel.ctx, server, reader, ['startup.read']);
  ownerClient = await panel.signedIn(owner);
  readerClient = await panel.signedIn(reader);
  strangerClient = await panel.signedIn(stranger);
});
afterAll(async () => {
  await panel.close();
});

describe('GET /startup', () => {
  it('lists the user-viewable variables with the command and the egg images', async () => {
    const res = await readerClient.get(`${base()}/startup`);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((v: any) => v.attributes.env_variable)).toEqual(['MAX_PLAYERS', 'WORLD_NAME']);
    expect(res.body.data[0]).toEqual({
      object: 'egg_variable',
      attributes: {
        name: 'Maximum players',
        description: 'How many players may be connected at once.',
        env_variable: 'MAX_PLAYERS',
        default_value: '10',
        server_value: '10',
        is_editable: true,
        rules: 'required|integer|between:1,500',
      },
    });
    expect(res.body.data[1].attributes.is_editable).toBe(false);
    expect(res.body.meta).toEqual({
      startup_command: 'java -Xmx512M -jar server.jar --players 10 --motd "[hidden]"',
      docker_images: IMAGES,
      raw_startup_command: server.startup,
      // the egg's one command is not the server's hand-written one
      startup_commands: [{ name: 'Default', command: egg.startup }],
      startup_command_name: null,
    });
  });

  it('is refused without startup.read, and hidden from users with no relation to the server', async () => {
    const { client: denied } = await subuserClient(panel, server, ['control.console']);
    expect((await denied.get(`${base()}/startup`)).status).toBe(403);
    expect((await strangerClient.get(`${base()}/startup`)).status).toBe(404);
  });
});

describe('PUT /startup/variable', () => {
  it('changes an editable variable, checked with its own rules, and logs it', async () => {
    const res = await ownerClient.put(`${base()}/startup/variable`, { key: 'MAX_PLAYERS', value: '64' });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('egg_variable');
    expect(res.body.attributes.server_value).toBe('64');
    expect(res.body.meta).toEqual({
      startup_command: 'java -Xmx512M -jar server.jar --players 64 --motd "[hidden]"',
      raw_startup_command: server.startup,
    });
    expect(await storedValue('MAX_PLAYERS')).toBe('64');
    const [entry] = await activity('server:startup.edit');
    expect(JSON.parse(entry!.properties)).toEqual({ variable: 'MAX_PLAYERS', old: '10', new: '64' });
  });

  it('refuses values that break the rules and changes nothing', async () => {
    const res = await ownerClient.put(`${base()}/startup/variable`, { key: 'MAX_PLAYERS', value: '9000' });
    expect(res.status).toBe(422);
    expect(firstError(res)).toMatchObject({
      code: 'ValidationException',
      detail: 'The value must be between 1 and 500.',
      meta: { source_field: 'value', rule: 'between' },
    });
    expect(await storedValue('MAX_PLAYERS')).toBe('64');
  });

  it('refuses read-only, hidden and unknown variables with the reference texts', async () => {
    const readOnly = await ownerClient.put(`${base()}/startup/variable`, { key: 'WORLD_NAME', value: 'x' });
    expect(readOnly.status).toBe(400);
    expect(firstError(readOnly).detail).toBe('The environment variable you are trying to edit is read-only.');
    for (const key of ['MOTD', 'NOPE']) {
      const res = await ownerClient.put(`${base()}/startup/variable`, { key, value: 'x' });
      expect(res.status).toBe(400);
      expect(firstError(res)).toMatchObject({
        code: 'BadRequestHttpException',
        detail: 'The environment variable you are trying to edit does not exist.',
      });
    }
    expect(await storedValue('WORLD_NAME')).toBe('world');
    const missing = await ownerClient.put(`${base()}/startup/variable`, { value: 'x' });
    expect(missing.status).toBe(422);
    expect(firstError(missing).meta.source_field).toBe('key');
  });

  it('needs startup.update', async () => {
    const res = await readerClient.put(`${base()}/startup/variable`, { key: 'MAX_PLAYERS', value: '5' });
    expect(res.status).toBe(403);
    expect(await storedValue('MAX_PLAYERS')).toBe('64');
  });
});

describe('PUT /settings/docker-image', () => {
  it("switches to another of the egg's images and logs old and new", async () => {
    const res = await ownerClient.put(`${base()}/settings/docker-image`, { docker_image: IMAGES['Java 21'] });
    expect(res.status).toBe(204);
    expect((await stored()).image).toBe(IMAGES['Java 21']);
    const [entry] = await activity('server:startup.image');
    expect(JSON.parse(entry!.properties)).toEqual({ old: IMAGES['Java 17'], new: IMAGES['Java 21'] });
    // The new image reaches the daemon through the server's configuration document.
    const details = await ownerClient.get(base());
    expect(details.body.attributes.docker_image).toBe(IMAGES['Java 21']);
  });

  it('refuses images the egg does not offer, and malformed ones', async () => {
    for (const docker_image of ['ghcr.io/evil/miner:latest', 'bad image!$', null]) {
      const res = await ownerClient.put(`${base()}/settings/docker-image`, { docker_image });
      expect(res.status).toBe(422);
      expect(firstError(res).meta.source_field).toBe('docker_image');
    }
    expect((await stored()).image).toBe(IMAGES['Java 21']);
  });

  it('refuses a change when an administrator set an image of their own', async () => {
    await panel.ctx.repositories.servers.update(server.id, { image: 'custom/by-admin:1' });
    const res = await ownerClient.put(`${base()}/settings/docker-image`, { docker_image: IMAGES['Java 17'] });
    expect(res.status).toBe(400);
    expect(firstError(res).detail).toBe(
      "This server's Docker image has been manually set by an administrator and cannot be updated.",
    );
    expect((await stored()).image).toBe('custom/by-admin:1');
    await panel.ctx.repositories.servers.update(server.id, { image: IMAGES['Java 21'] });
  });

  it('needs startup.docker-image, and a usable server', async () => {
    const res = await readerClient.put(`${base()}/settings/docker-image`, {
      docker_image: IMAGES['Java 17'],
    });
    expect(res.status).toBe(403);
    await panel.ctx.repositories.servers.update(server.id, { status: 'suspended' });
    const suspended = await ownerClient.put(`${base()}/settings/docker-image`, {
      docker_image: IMAGES['Java 17'],
    });
    expect(suspended.status).toBe(409);
    await panel.ctx.repositories.servers.update(server.id, { status: null });
    expect((await stored()).image).toBe(IMAGES['Java 21']);
  });
});

describe('the order of the checks: server state (409), then permission (403), then input (422)', () => {
  const suspend = (status: Server['status']) => panel.ctx.repositories.servers.update(server.id, { status });

  it('answers 409 on a suspended server to a reader without the permission and to the owner with bad input', async () => {
    await suspend('suspended');
    try {
      for (const res of [
        await readerClient.put(`${base()}/startup/variable`, { key: 'MAX_PLAYERS', value: '5' }),
        await readerClient.put(`${base()}/settings/docker-image`, { docker_image: IMAGES['Java 17'] }),
        await ownerClient.put(`${base()}/startup/variable`, { value: 'x' }),
        await ownerClient.put(`${base()}/settings/docker-image`, { docker_image: 'bad image!$' }),
        await ownerClient.get(`${base()}/startup`),
      ]) {
        expectError(
          res,
          409,
          'ServerStateConflictException',
          'This server is currently suspended and the functionality requested is unavailable.',
        );
      }
    } finally {
      await suspend(null);
    }
    expect(await storedValue('MAX_PLAYERS')).toBe('64');
  });

  it('answers 403 before 422 on a usable server', async () => {
    for (const res of [
      await readerClient.put(`${base()}/startup/variable`, { value: 'x' }),
      await readerClient.put(`${base()}/settings/docker-image`, { docker_image: 'bad image!$' }),
    ]) {
      expect(res.status).toBe(403);
      expect(firstError(res).code).toBe('AccessDeniedHttpException');
    }
    expect(
      (await ownerClient.put(`${base()}/settings/docker-image`, { docker_image: 'bad image!$' })).status,
    ).toBe(422);
  });
});
