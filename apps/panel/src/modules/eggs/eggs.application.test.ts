import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/client.ts';
import { applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// POST /api/application/nests/:nest/eggs/import (our extension, issue 17): the same rules as egg:import.
let panel: TestPanel;
let full: TestClient;
let readOnly: TestClient;
let nestId: number;

const YAML = `meta: { version: PLCN_v3, update_url: null }
name: Api Yaml
author: api@example.org
uuid: 6e1d2c3b-4a59-4867-9a0b-1c2d3e4f5a6b
docker_images: { Main: 'example/api:1' }
startup_commands: { Default: ./run, Other: './run --other' }
config:
  files: { '/a.yml': { parser: yaml, find: { port: '{{server.allocations.default.port}}', x: '{{server.nope}}' } } }
  startup: { done: Ready }
  stop: stop
scripts: { installation: { script: "echo\\r\\n", container: example/installer, entrypoint: bash } }
variables:
  - { name: Mode, env_variable: MODE, default_value: a, user_viewable: true, user_editable: true, rules: [required, 'nullable:x'] }
`;

beforeAll(async () => {
  panel = await startTestPanel();
  full = await applicationClient(panel);
  readOnly = await applicationClient(panel, { r_eggs: 1 });
  nestId = (await panel.ctx.services.eggs.ensureNest('Api', 'test')).id;
});
afterAll(async () => {
  await panel.close();
});

describe('POST /api/application/nests/:nest/eggs/import', () => {
  it('imports a YAML egg sent as text, with the warnings, then updates it by uuid', async () => {
    const res = await full.postRaw(`/api/application/nests/${nestId}/eggs/import`, YAML);
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('egg');
    expect(res.body.attributes).toMatchObject({
      name: 'Api Yaml',
      uuid: '6e1d2c3b-4a59-4867-9a0b-1c2d3e4f5a6b',
      startup: './run',
    });
    expect(res.body.meta).toEqual({
      action: 'imported',
      matched: null,
      warnings: [
        'variables[0].rules: "nullable:x": "nullable" takes no parameters; "x" is ignored',
        'config.files["/a.yml"].find.x: the placeholder {{server.nope}} is unknown and will be empty',
      ],
    });
    const again = await full.postRaw(
      `/api/application/nests/${nestId}/eggs/import`,
      YAML.replace('Api Yaml', 'Api Yaml 2'),
    );
    expect(again.body.meta).toMatchObject({
      action: 'updated',
      matched: { id: res.body.attributes.id, name: 'Api Yaml', by: 'uuid' },
    });
  });

  it('takes a JSON body too', async () => {
    const file = {
      meta: { version: 'PTDL_v2' },
      name: 'Api Json',
      author: 'api@example.org',
      docker_images: ['example/api:2'],
      startup: './run',
      config: { files: '{}', startup: '{"done": ""}', stop: '^C' },
      scripts: { installation: { script: '', container: 'example/installer', entrypoint: 'ash' } },
      variables: [],
    };
    const res = await full.post(`/api/application/nests/${nestId}/eggs/import`, file);
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.docker_images).toEqual({ 'example/api:2': 'example/api:2' });
    expect(res.body.meta.action).toBe('imported');
  });

  it('refuses a bad file with one 422 error per problem and stores nothing', async () => {
    const bad = YAML.replace('rules: [required', 'rules: [requird').replace(
      'author: api@example.org',
      'author: nobody',
    );
    const res = await full.postRaw(
      `/api/application/nests/${nestId}/eggs/import`,
      bad.replace('Api Yaml', 'Bad'),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        code: 'ValidationException',
        status: '422',
        detail: 'author: must be an email address',
        meta: { source_field: 'author', rule: 'egg' },
      },
      {
        code: 'ValidationException',
        status: '422',
        detail: 'variables[0].rules: "requird" is not a known validation rule',
        meta: { source_field: 'variables[0].rules', rule: 'egg' },
      },
    ]);
    const stored = await panel.ctx.db.db.selectFrom('eggs').select('id').where('name', '=', 'Bad').execute();
    expect(stored).toEqual([]);
  });

  it('needs the write bit of r_eggs (403), and a nest that exists (404)', async () => {
    expect((await readOnly.postRaw(`/api/application/nests/${nestId}/eggs/import`, YAML)).status).toBe(403);
    expect((await full.postRaw('/api/application/nests/99999/eggs/import', YAML)).status).toBe(404);
  });
});
