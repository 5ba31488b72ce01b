import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Node, Server, User } from '../../db/types.ts';
import { expectError, type TestClient } from '../../test-support/client.ts';
import { nodeAndEgg, serverRow, subuserClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// Our extension for PLCN_v3 eggs (issue 17): GET /startup lists the egg's named start-up commands
// and PUT /startup/command picks one; variables show in the egg's `sort` order.
const COMMANDS = [
  { name: 'Default', command: 'node server.js' },
  { name: 'Verbose', command: 'node server.js --verbose {{MAX_PLAYERS}}' },
];

let panel: TestPanel;
let node: Node;
let egg: Egg;
let owner: User;
let ownerClient: TestClient;
let strangerClient: TestClient;
let server: Server;

const base = () => `/api/client/servers/${server.uuid_short}`;
const stored = () =>
  panel.ctx.db.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();

beforeAll(async () => {
  panel = await startTestPanel();
  ({ node, egg } = await nodeAndEgg(panel.ctx, [44200, 44209]));
  await panel.ctx.db.db
    .updateTable('eggs')
    .set({ startup_commands: JSON.stringify(COMMANDS), startup: COMMANDS[0]!.command })
    .where('id', '=', egg.id)
    .execute();
  // WORLD_NAME first, then MAX_PLAYERS; MOTD has no sort and comes last
  for (const [env, sort] of [
    ['WORLD_NAME', 1],
    ['MAX_PLAYERS', 2],
  ] as const)
    await panel.ctx.db.db
      .updateTable('egg_variables')
      .set({ sort })
      .where('egg_id', '=', egg.id)
      .where('env_variable', '=', env)
      .execute();
  owner = await panel.createUser({ username: 'owner' });
  const stranger = await panel.createUser({ username: 'stranger' });
  server = await serverRow(panel.ctx, node, egg, owner.id, { startup: COMMANDS[0]!.command });
  ownerClient = await panel.signedIn(owner);
  strangerClient = await panel.signedIn(stranger);
});
afterAll(async () => {
  await panel.close();
});

describe('named start-up commands', () => {
  it('GET /startup lists them, the one in use, and the variables in sort order', async () => {
    const res = await ownerClient.get(`${base()}/startup`);
    expect(res.status).toBe(200);
    expect(res.body.meta.startup_commands).toEqual(COMMANDS);
    expect(res.body.meta.startup_command_name).toBe('Default');
    expect(res.body.data.map((v: any) => v.attributes.env_variable)).toEqual([
      'WORLD_NAME',
      'MAX_PLAYERS',
      'MOTD',
    ]);
  });

  it('PUT /startup/command switches to another, and says what the command now is', async () => {
    const res = await ownerClient.put(`${base()}/startup/command`, { name: 'Verbose' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      object: 'startup_command',
      attributes: {
        startup_command: 'node server.js --verbose 10',
        raw_startup_command: COMMANDS[1]!.command,
        startup_commands: COMMANDS,
        startup_command_name: 'Verbose',
      },
    });
    expect((await stored()).startup).toBe(COMMANDS[1]!.command);
    const logged = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .selectAll()
      .where('event', '=', 'server:startup.command')
      .execute();
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!.properties)).toEqual({ old: 'Default', new: 'Verbose' });
  });

  it('refuses a name the egg does not have (422) and changes nothing', async () => {
    const before = (await stored()).startup;
    const res = await ownerClient.put(`${base()}/startup/command`, { name: 'Nope' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      code: 'ValidationException',
      detail: 'The selected name is invalid.',
    });
    const missing = await ownerClient.put(`${base()}/startup/command`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ detail: 'The name field is required.' });
    expect((await stored()).startup).toBe(before);
  });

  it('is refused without startup.update (403), and for a stranger (404)', async () => {
    const { client: reader } = await subuserClient(panel, server, ['startup.read']);
    expect((await reader.put(`${base()}/startup/command`, { name: 'Default' })).status).toBe(403);
    expect((await strangerClient.put(`${base()}/startup/command`, { name: 'Default' })).status).toBe(404);
  });

  it('refuses when an administrator wrote the command by hand (400), and keeps it', async () => {
    await panel.ctx.db.db
      .updateTable('servers')
      .set({ startup: 'custom --run' })
      .where('id', '=', server.id)
      .execute();
    const res = await ownerClient.get(`${base()}/startup`);
    expect(res.body.meta.startup_command_name).toBeNull();
    expectError(
      await ownerClient.put(`${base()}/startup/command`, { name: 'Default' }),
      400,
      'BadRequestHttpException',
      "This server's startup command has been manually set by an administrator and cannot be updated.",
    );
    expect((await stored()).startup).toBe('custom --run');
  });
});
