import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Egg, Server } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { applicationClient, nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// The `servers`, `config` and `script` includes of eggs and the `servers` include of nests
// (reference §5.1): a child egg copies its configuration and install script from the built-in one.
let panel: TestPanel;
let full: TestClient;
let parent: Egg;
let child: Egg;
let server: Server;

const NULL = { object: 'null_resource', attributes: null };
const eggUrl = (egg: Egg, include: string) =>
  `/api/application/nests/${egg.nest_id}/eggs/${egg.id}?include=${include}`;

beforeAll(async () => {
  panel = await startTestPanel();
  const { node, egg } = await nodeAndEgg(panel.ctx, [44300, 44309]);
  parent = egg;
  full = await applicationClient(panel);
  const owner = await panel.createUser();
  server = await serverRow(panel.ctx, node, parent, owner.id, { name: 'On the parent egg' });
  const db = panel.ctx.db.db;
  const { id: _id, uuid: _uuid, ...copy } = parent;
  child = await db
    .insertInto('eggs')
    .values({
      ...copy,
      uuid: crypto.randomUUID(),
      name: 'Child egg',
      config_from: parent.id,
      copy_script_from: parent.id,
      config_startup: 'null',
      config_stop: null,
      script_install: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await panel.close();
});

describe('egg includes', () => {
  it('lists the servers made from the egg', async () => {
    const res = await full.get(eggUrl(parent, 'servers'));
    expect(res.status).toBe(200);
    const list = res.body.attributes.relationships.servers;
    expect(list.object).toBe('list');
    expect(list.data.map((s: any) => s.attributes.name)).toEqual(['On the parent egg']);
    expect((await full.get(eggUrl(child, 'servers'))).body.attributes.relationships.servers.data).toEqual([]);
  });

  it('renders config and script as null resources for an egg that copies nothing', async () => {
    const rel = (await full.get(eggUrl(parent, 'config,script'))).body.attributes.relationships;
    expect(rel).toEqual({ config: NULL, script: NULL });
  });

  it("takes a copying egg's empty configuration parts and its whole script from the parent", async () => {
    const rel = (await full.get(eggUrl(child, 'config,script'))).body.attributes.relationships;
    expect(rel.config.object).toBeNull();
    expect(rel.config.attributes).toEqual({
      files: JSON.parse(parent.config_files),
      startup: JSON.parse(parent.config_startup),
      stop: parent.config_stop,
      logs: JSON.parse(parent.config_logs),
    });
    expect(rel.script).toEqual({
      object: null,
      attributes: {
        privileged: parent.script_is_privileged === 1,
        install: parent.script_install,
        entry: parent.script_entry,
        container: parent.script_container,
      },
    });
  });

  it('needs r_servers for servers; config and script need no ACL', async () => {
    const eggsOnly = await applicationClient(panel, { r_eggs: 1, r_nests: 1 });
    const rel = (await eggsOnly.get(eggUrl(child, 'servers,config,script'))).body.attributes.relationships;
    expect(rel.servers).toEqual(NULL);
    expect(rel.config.attributes.stop).toBe(parent.config_stop);
    expect(rel.script.attributes.install).toBe(parent.script_install);
  });
});

describe('nest includes', () => {
  it("lists the nest's servers, with the includes below them", async () => {
    const res = await full.get(`/api/application/nests/${parent.nest_id}?include=servers.egg`);
    expect(res.status).toBe(200);
    const servers = res.body.attributes.relationships.servers.data;
    expect(servers.map((s: any) => s.attributes.id)).toEqual([server.id]);
    expect(servers[0].attributes.relationships.egg.attributes.id).toBe(parent.id);
  });
});
