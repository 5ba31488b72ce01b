// egg:import and egg:export as an operator runs them: several files, a folder, per-file results, exit codes.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { startTestCli, type TestCli } from '../test-support/cli.ts';

let testCli: TestCli;
let dataDir: string;
let eggsDir: string;
let ctx: AppContext;
const cli = (...args: string[]) => testCli.run(...args);

const PTDL = {
  meta: { version: 'PTDL_v2', update_url: null },
  name: 'Cli Json',
  author: 'cli@example.org',
  description: '',
  features: [],
  docker_images: { Main: 'example/cli:1' },
  file_denylist: '',
  startup: './run {{SERVER_PORT}}',
  config: { files: '{}', startup: '{"done": "Ready"}', logs: '{}', stop: 'stop' },
  scripts: { installation: { script: 'echo hi\r\n', container: 'example/installer', entrypoint: 'bash' } },
  variables: [
    {
      name: 'Mode',
      description: '',
      env_variable: 'MODE',
      default_value: 'a',
      user_viewable: true,
      user_editable: true,
      rules: 'required|nullable:string|string|',
      field_type: 'text',
    },
  ],
};

const PLCN_YAML = `meta:
  version: PLCN_v3
  update_url: null
name: Cli Yaml
author: cli@example.org
uuid: 2a7f4c1e-9b3d-4e8a-a1c2-3d4e5f6a7b8c
description: ''
tags: [cli]
features: []
docker_images:
  Main: example/cli:2
file_denylist: []
startup_commands:
  Default: ./run
  Verbose: ./run -v
config:
  files:
    /conf/a.yml:
      parser: yaml
      find:
        port: '{{server.allocations.default.port}}'
  startup:
    done: ''
  stop: ^C
scripts:
  installation:
    script: echo yaml
    container: example/installer
    entrypoint: ash
variables: []
`;

beforeAll(async () => {
  testCli = await startTestCli({ prefix: 'talon-egg-cli-' });
  ({ ctx, dataDir } = testCli);
  eggsDir = path.join(dataDir, 'eggs');
  mkdirSync(path.join(eggsDir, 'pelican'), { recursive: true });
  writeFileSync(path.join(eggsDir, 'egg-cli-json.json'), JSON.stringify(PTDL, null, 2));
  // no .yml extension needed for the content, but the folder search looks for egg files by name
  writeFileSync(path.join(eggsDir, 'pelican', 'egg-cli.yaml'), PLCN_YAML);
  writeFileSync(path.join(eggsDir, 'README.md'), '# not an egg');
  writeFileSync(
    path.join(dataDir, 'bad.json'),
    JSON.stringify({ ...PTDL, name: 'Bad', variables: [{ ...PTDL.variables[0], rules: 'required|intger' }] }),
  );
}, 120_000);

afterAll(async () => {
  await testCli?.close();
});

describe('egg:import', () => {
  it('imports a folder (recursively, JSON and YAML), then reports updates by uuid or name', async () => {
    const first = await cli('egg:import', '--file', eggsDir, '--nest', 'Community');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const json = path.join(eggsDir, 'egg-cli-json.json');
    const yaml = path.join(eggsDir, 'pelican', 'egg-cli.yaml');
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^imported  ${json}: egg "Cli Json" \\(id \\d+\\) in nest "Community"$`, 'u'),
    );
    expect(lines[1]).toBe(
      `  warning: variables[0].rules: "nullable:string": "nullable" takes no parameters; "string" is ignored`,
    );
    expect(lines[2]).toMatch(
      new RegExp(`^imported  ${yaml}: egg "Cli Yaml" \\(id \\d+\\) in nest "Community"$`, 'u'),
    );
    expect(lines[3]).toBe('2 imported, 0 updated, 0 refused');

    const yamlEgg = await ctx.db.db
      .selectFrom('eggs')
      .selectAll()
      .where('name', '=', 'Cli Yaml')
      .executeTakeFirstOrThrow();
    expect(yamlEgg.uuid).toBe('2a7f4c1e-9b3d-4e8a-a1c2-3d4e5f6a7b8c');
    expect(JSON.parse(yamlEgg.startup_commands!)).toEqual([
      { name: 'Default', command: './run' },
      { name: 'Verbose', command: './run -v' },
    ]);
    expect(yamlEgg.startup).toBe('./run');

    // renamed in the file: still the same egg, found by its uuid
    writeFileSync(yaml, PLCN_YAML.replace('name: Cli Yaml', 'name: Cli Yaml 2'));
    const again = await cli('egg:import', '--file', json, '--file', yaml, '--nest', 'Community');
    expect(again.code).toBe(0);
    const out = again.stdout.trimEnd().split('\n');
    expect(out[0]).toMatch(
      /^updated {3}.*egg-cli-json\.json: egg "Cli Json" \(id \d+\), the egg "Cli Json" of the same name in nest "Community"$/u,
    );
    expect(out[2]).toBe(
      `updated   ${yaml}: egg "Cli Yaml 2" (id ${yamlEgg.id}), the egg "Cli Yaml" of the same uuid in nest "Community"`,
    );
    expect(out.at(-1)).toBe('0 imported, 2 updated, 0 refused');
  }, 120_000);

  it('goes on after a refusal, says why, and exits non-zero', async () => {
    const bad = path.join(dataDir, 'bad.json');
    const missing = path.join(dataDir, 'missing.json');
    const res = await cli(
      'egg:import',
      '--file',
      bad,
      '--file',
      path.join(eggsDir, 'egg-cli-json.json'),
      '--nest',
      'Mixed',
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `refused   ${bad}:\n  - variables[0].rules: "intger" is not a known validation rule\n`,
    );
    expect(res.stdout).toMatch(/imported {2}.*egg-cli-json\.json: egg "Cli Json"/u);
    expect(res.stdout.trimEnd().split('\n').at(-1)).toBe('1 imported, 0 updated, 1 refused');
    expect(await ctx.db.db.selectFrom('eggs').select('id').where('name', '=', 'Bad').execute()).toEqual([]);

    const none = await cli('egg:import', '--file', missing);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`egg:import: cannot read ${missing}`);
    const noFlag = await cli('egg:import');
    expect(noFlag).toMatchObject({
      code: 1,
      stderr: 'egg:import: --file is required (a file or a folder; repeat it for several)\n',
    });
  }, 120_000);
});

describe('egg:export', () => {
  it('writes PTDL_v2 by default and PLCN_v3 on request', async () => {
    const egg = await ctx.db.db
      .selectFrom('eggs')
      .selectAll()
      .where('uuid', '=', '2a7f4c1e-9b3d-4e8a-a1c2-3d4e5f6a7b8c')
      .executeTakeFirstOrThrow();
    const [ptdl, plcn, bad] = await Promise.all([
      cli('egg:export', '--egg', String(egg.id)),
      cli('egg:export', '--egg', String(egg.id), '--format', 'PLCN_v3'),
      cli('egg:export', '--egg', String(egg.id), '--format', 'PTDL_v9'),
    ]);
    expect(JSON.parse(ptdl.stdout)).toMatchObject({ meta: { version: 'PTDL_v2' }, startup: './run' });
    expect(JSON.parse(plcn.stdout)).toMatchObject({
      meta: { version: 'PLCN_v3' },
      uuid: egg.uuid,
      startup_commands: { Default: './run', Verbose: './run -v' },
    });
    expect(bad).toMatchObject({ code: 1, stderr: 'egg:export: --format takes PTDL_v2 or PLCN_v3\n' });
  }, 120_000);
});
