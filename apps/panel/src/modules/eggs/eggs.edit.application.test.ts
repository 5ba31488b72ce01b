import { adminEggSchema, eggImportMetaSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { expectError, type Res, TestClient } from '../../test-support/client.ts';
import {
  activityAbout,
  applicationClient,
  importPaperEgg,
  paperEggText,
} from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { insertNode, insertServer } from '../application/testing.ts';

// Egg edit, delete and export (extensions, docs/api.md "Nests and eggs"), and the import wrapper.
const PAPER = paperEggText();

let panel: TestPanel;
let api: TestClient;
let admin: User;
let nestId: number;

const patch = (c: TestClient, path: string, body: unknown) => c.request('PATCH', path, body);
const errorsOf = (res: Res) =>
  (res.body.errors as { detail: string; meta: { source_field: string; rule: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.meta.rule}|${e.detail}`,
  );
const eggUrl = (id: number, nest = nestId) => `/api/application/nests/${nest}/eggs/${id}`;
const rowOf = (id: number) =>
  panel.ctx.db.db.selectFrom('eggs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const paperEgg = (name: string) => importPaperEgg(panel.ctx, nestId, name);

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  api = await applicationClient(panel);
  nestId = (await panel.ctx.services.eggs.ensureNest('Edits', 'test')).id;
});
afterAll(async () => {
  await panel.close();
});

describe('PATCH /api/application/nests/{nest}/eggs/{egg}', () => {
  it('changes the fields given, keeps the rest and the variables, and records it', async () => {
    const id = await paperEgg('Paper edit');
    const variablesBefore = await panel.ctx.repositories.eggs.variables(id);
    const res = await patch(api, eggUrl(id), {
      name: 'Paper (edited)',
      description: 'Fast Minecraft',
      docker_images: { 'Java 21': 'ghcr.io/example/java:21' },
      startup: 'java -jar {{SERVER_JARFILE}}',
      config: {
        files: {
          'server.properties': {
            parser: 'properties',
            find: { 'server-port': '{{server.build.default.port}}' },
          },
        },
        startup: { done: 'Done (' },
        stop: '^C',
        logs: {},
        file_denylist: ['*.bak'],
      },
      script: { install: 'echo hi\n', entry: 'ash', container: 'alpine:3', privileged: false },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('egg');
    expect(adminEggSchema.strict().parse(res.body.attributes).id).toBe(id);
    expect(res.body.attributes).toMatchObject({
      id,
      name: 'Paper (edited)',
      description: 'Fast Minecraft',
      docker_image: 'ghcr.io/example/java:21',
      docker_images: { 'Java 21': 'ghcr.io/example/java:21' },
      startup: 'java -jar {{SERVER_JARFILE}}',
      config: {
        files: {
          'server.properties': {
            parser: 'properties',
            find: { 'server-port': '{{server.build.default.port}}' },
          },
        },
        startup: { done: ['Done ('], strip_ansi: false },
        stop: '^C',
        file_denylist: ['*.bak'],
      },
      script: { install: 'echo hi\n', entry: 'ash', container: 'alpine:3', privileged: false },
    });
    expect(await panel.ctx.repositories.eggs.variables(id)).toEqual(
      variablesBefore.map((v) => ({ ...v, updated_at: expect.any(String) })),
    );
    // A partial edit leaves everything else alone.
    const renamed = await patch(api, eggUrl(id), { name: 'Paper again' });
    expect(renamed.body.attributes).toMatchObject({
      name: 'Paper again',
      startup: 'java -jar {{SERVER_JARFILE}}',
    });
    const events = await activityAbout(panel.ctx, { type: 'egg', id });
    expect(events.map((e) => e.event)).toEqual(['egg:update', 'egg:update']);
  });

  it('refuses each bad field with a 422 on that field (the importer rules) and changes nothing', async () => {
    const id = await paperEgg('Paper bad edits');
    const before = await rowOf(id);
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name|egg|name: must not be empty'],
      [{ name: 5 }, 'name|string|The name must be a string.'],
      [{ docker_images: {} }, 'docker_images|egg|docker_images: must list at least one image'],
      [{ startup: '' }, 'startup|egg|startup: must not be empty'],
      [{ config: 'x' }, 'config|array|The config must be an array.'],
      [
        { config: { files: '{"a": ' } },
        'config.files|egg|config.files: is not valid JSON (line 1, column 7)',
      ],
      [
        { config: { files: { 'a.yml': { parser: 'toml', find: {} } } } },
        'config.files["a.yml"].parser|egg|config.files["a.yml"].parser: "toml" is not a supported parser (file, yaml, yml, properties, ini, json, xml)',
      ],
      [{ script: { entry: 'python' } }, 'script.entry'],
      [{ script: { container: 'not an image!' } }, 'script.container'],
      // Longer than their 191-character columns: PostgreSQL would refuse the write (a 500).
      [{ script: { container: `ghcr.io/${'a'.repeat(200)}` } }, 'script.container|egg|'],
      [{ config: { stop: 'x'.repeat(192) } }, 'config.stop|egg|'],
      [{ name: 'x'.repeat(192) }, 'name|egg|'],
      [
        { script: { privileged: 'yes' } },
        'script.privileged|boolean|The script.privileged field must be true or false.',
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await patch(api, eggUrl(id), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].code).toBe('ValidationException');
      const found = errorsOf(res);
      expect(found, JSON.stringify(body)).toHaveLength(1);
      expect(found[0]?.startsWith(expected), `${found[0]} for ${JSON.stringify(body)}`).toBe(true);
    }
    expect(await rowOf(id)).toEqual(before);
  });

  it('answers 404 for an egg of another nest', async () => {
    const id = await paperEgg('Paper elsewhere');
    const other = (await panel.ctx.services.eggs.ensureNest('Other nest', 'x')).id;
    expect((await patch(api, eggUrl(id, other), { name: 'x' })).status).toBe(404);
    expect((await api.get(`${eggUrl(id, other)}/export`)).status).toBe(404);
    expect((await api.delete(eggUrl(id, other))).status).toBe(404);
  });
});

describe('DELETE /api/application/nests/{nest}/eggs/{egg}', () => {
  it('deletes an unused egg with its variables (204)', async () => {
    const id = await paperEgg('Paper delete');
    expect((await api.delete(eggUrl(id))).status).toBe(204);
    expect((await api.get(eggUrl(id))).status).toBe(404);
    expect(await panel.ctx.repositories.eggs.variables(id)).toEqual([]);
  });

  it('refuses an egg that servers use (400) and keeps it', async () => {
    const { nodeId, allocationId } = await insertNode(panel);
    const serverId = await insertServer(panel, { ownerId: admin.id, nodeId, allocationId });
    const server = await panel.ctx.db.db
      .selectFrom('servers')
      .select(['egg_id', 'nest_id'])
      .where('id', '=', serverId)
      .executeTakeFirstOrThrow();
    const res = await api.delete(eggUrl(server.egg_id, server.nest_id));
    expectError(res, 400, 'DisplayException', 'Cannot delete an egg that servers still use.');
    expect((await api.get(eggUrl(server.egg_id, server.nest_id))).status).toBe(200);
  });
});

describe('GET /api/application/nests/{nest}/eggs/{egg}/export', () => {
  it('downloads the PTDL_v2 file; importing it elsewhere gives the same egg', async () => {
    const id = await paperEgg('Paper export');
    await patch(api, eggUrl(id), {
      description: 'Edited before export',
      config: { file_denylist: ['x.log'] },
    });
    const res = await api.get(`${eggUrl(id)}/export`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="egg-paper-export.json"');
    expect(res.body.meta.version).toBe('PTDL_v2');
    expect(res.body).toMatchObject({
      name: 'Paper export',
      description: 'Edited before export',
      file_denylist: ['x.log'],
    });

    const otherNest = (await api.post('/api/application/nests', { name: 'Round trip' })).body.attributes.id;
    const imported = await api.postRaw(`/api/application/nests/${otherNest}/eggs/import`, res.text);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.meta.warnings).toEqual([]);
    const again = await api.get(`${eggUrl(imported.body.attributes.id, otherNest)}/export`);
    const comparable = (file: Record<string, unknown>) => ({ ...file, exported_at: null, uuid: null });
    expect(comparable(again.body)).toEqual(comparable(res.body));
    // The original's variables survive the trip too.
    expect(again.body.variables).toHaveLength(4);
  });

  it('names the file from the egg name safely: quotes, line breaks and slashes never reach the header', async () => {
    const id = await paperEgg('Paper name');
    // Stored as is (an older import or the database edited by hand): the header must still be safe.
    await panel.ctx.repositories.eggs.updateEgg(id, {
      name: 'Évil "x"\r\nX-Injected: 1; filename="../../run.sh',
    });
    const res = await api.get(`${eggUrl(id)}/export`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-injected')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="egg-evil-x-x-injected-1-filename-run-sh.json"',
    );
    expect(res.body.name).toBe('Évil "x"\r\nX-Injected: 1; filename="../../run.sh');
  });

  it('is readable with a read-only key', async () => {
    const id = await paperEgg('Paper read');
    const reader = await applicationClient(panel, { r_eggs: 1 });
    expect((await reader.get(`${eggUrl(id)}/export`)).status).toBe(200);
  });
});

describe('access to the egg writes', () => {
  it('needs credentials (401)', async () => {
    const id = await paperEgg('Paper 401');
    const anonymous = new TestClient(panel.url);
    for (const res of [
      await patch(anonymous, eggUrl(id), { name: 'x' }),
      await anonymous.delete(eggUrl(id)),
      await anonymous.get(`${eggUrl(id)}/export`),
    ])
      expectError(res, 401, 'AuthenticationException', 'Unauthenticated.');
  });

  it('refuses non-admin sessions, keys without r_eggs and read-only keys (403), changing nothing', async () => {
    const id = await paperEgg('Paper 403');
    const before = await rowOf(id);
    const session = await panel.signedIn(await panel.createUser());
    expectError(
      await patch(session, eggUrl(id), { name: 'x' }),
      403,
      'AccessDeniedHttpException',
      'This account does not have permission to access the API.',
    );
    const noEggs = await applicationClient(panel, { r_nests: 3 });
    expectError(
      await noEggs.get(`${eggUrl(id)}/export`),
      403,
      'AccessDeniedHttpException',
      'This action is unauthorized.',
    );
    for (const client of [noEggs, await applicationClient(panel, { r_eggs: 1, r_nests: 3 })]) {
      for (const res of [await patch(client, eggUrl(id), { name: 'x' }), await client.delete(eggUrl(id))])
        expectError(res, 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
    expect(await rowOf(id)).toEqual(before);
  });
});

describe('POST /api/application/nests/{nest}/eggs/import with { egg: … }', () => {
  it('takes the file text (JSON or YAML) or object inside `egg`', async () => {
    const asText = await api.post(`/api/application/nests/${nestId}/eggs/import`, {
      egg: PAPER.replace('"name": "Paper"', '"name": "Wrapped text"'),
    });
    expect(asText.status, asText.text).toBe(200);
    expect(asText.body.attributes.name).toBe('Wrapped text');
    expect(eggImportMetaSchema.strict().parse(asText.body.meta).action).toBe('imported');
    const file = JSON.parse(PAPER) as Record<string, unknown>;
    const installation = (file as { scripts: { installation: Record<string, unknown> } }).scripts
      .installation;
    const script = '  echo hi\r\n';
    const asObject = await api.post(`/api/application/nests/${nestId}/eggs/import`, {
      egg: { ...file, name: 'Wrapped object', scripts: { installation: { ...installation, script } } },
    });
    expect(asObject.status, asObject.text).toBe(200);
    expect(asObject.body.meta.action).toBe('imported');
    // Strings of a file sent as an object are not trimmed: the install script is kept byte for byte.
    expect((await rowOf(asObject.body.attributes.id)).script_install).toBe(script);
  });

  it("answers the importer's problems with their paths in the file", async () => {
    const file = JSON.parse(PAPER) as { variables: { env_variable: string; rules: string }[] };
    file.variables[1]!.env_variable = 'BAD-NAME';
    file.variables[2]!.rules = 'required|intger';
    const res = await api.post(`/api/application/nests/${nestId}/eggs/import`, { egg: file });
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toEqual([
      'variables[1].env_variable|egg|variables[1].env_variable: must be letters, digits and underscores',
      'variables[2].rules|egg|variables[2].rules: "intger" is not a known validation rule',
    ]);
    const broken = await api.post(`/api/application/nests/${nestId}/eggs/import`, { egg: '{"meta": ' });
    expect(errorsOf(broken)).toEqual(['|egg|the file is not valid JSON at line 1, column 10']);
  });
});
