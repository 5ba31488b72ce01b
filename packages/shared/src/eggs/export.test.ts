import { describe, expect, it } from 'vitest';
import { exportEgg, parseEgg, type NormalizedEgg } from './index.ts';

const egg: NormalizedEgg = {
  uuid: null,
  tags: [],
  name: 'Example',
  author: 'someone@example.org',
  description: 'An example.',
  updateUrl: null,
  features: ['eula'],
  dockerImages: [
    { label: 'Big', image: 'example/big:1' },
    { label: 'Small', image: 'example/small:1' },
  ],
  fileDenylist: ['*.lock'],
  startup: 'run --port {{SERVER_PORT}}',
  startupCommands: [{ name: 'Default', command: 'run --port {{SERVER_PORT}}' }],
  config: {
    files: {
      'conf/app.yml': { parser: 'yaml', find: { port: '{{server.build.default.port}}', debug: false } },
    },
    startup: { done: ['ready', 'regex:^Listening on \\d+$'], stripAnsi: true },
    logs: {},
    stop: '^SIGTERM',
  },
  install: { script: '#!/bin/bash\necho hi\n', container: 'example/installer', entrypoint: 'bash' },
  variables: [
    {
      name: 'Level',
      description: 'World name',
      envVariable: 'LEVEL',
      defaultValue: 'world',
      userViewable: true,
      userEditable: false,
      rules: 'required|string|max:20',
      fieldType: 'text',
      sort: null,
    },
  ],
};

describe('exportEgg', () => {
  it('writes PTDL_v2 with a fixed key order and the export time', () => {
    const out = exportEgg(egg, { exportedAt: new Date('2025-06-01T12:00:00Z') });
    expect(Object.keys(out)).toEqual([
      '_comment',
      'meta',
      'exported_at',
      'name',
      'author',
      'description',
      'features',
      'docker_images',
      'file_denylist',
      'startup',
      'config',
      'scripts',
      'variables',
    ]);
    expect(out.meta).toEqual({ version: 'PTDL_v2', update_url: null });
    expect(out.exported_at).toBe('2025-06-01T12:00:00.000Z');
    expect(out.docker_images).toEqual({ Big: 'example/big:1', Small: 'example/small:1' });
    const config = out.config as Record<string, string>;
    // config sections are JSON text, as PTDL_v2 importers expect
    expect(typeof config.files).toBe('string');
    expect(JSON.parse(config.startup!)).toEqual({
      done: ['ready', 'regex:^Listening on \\d+$'],
      strip_ansi: true,
    });
  });

  it('writes a single done string as a string', () => {
    const single = { ...egg, config: { ...egg.config, startup: { done: ['ready'], stripAnsi: false } } };
    const config = exportEgg(single).config as Record<string, string>;
    expect(JSON.parse(config.startup!)).toEqual({ done: 'ready' });
  });

  it('round-trips', () => {
    const again = parseEgg(JSON.parse(JSON.stringify(exportEgg(egg))));
    expect(again).toEqual({ ok: true, format: 'PTDL_v2', egg, warnings: [] });
  });

  it('writes PLCN_v3 on request: named commands, rule lists, uuid, tags and sort, and reads it back', () => {
    const pelican: NormalizedEgg = {
      ...egg,
      uuid: '0b6c4d0e-5b8e-4a57-9d7c-3f7b9c2a1e10',
      tags: ['test'],
      startupCommands: [
        { name: 'Default', command: egg.startup },
        { name: 'Debug', command: `${egg.startup} --debug` },
      ],
      variables: [{ ...egg.variables[0]!, sort: 1 }],
    };
    const file = exportEgg(pelican, { format: 'PLCN_v3', exportedAt: new Date(0) });
    expect(file.meta).toEqual({ version: 'PLCN_v3', update_url: null });
    expect(file.startup_commands).toEqual({ Default: egg.startup, Debug: `${egg.startup} --debug` });
    expect(file).not.toHaveProperty('startup');
    expect((file.variables as { rules: unknown }[])[0]!.rules).toEqual(['required', 'string', 'max:20']);
    const again = parseEgg(JSON.parse(JSON.stringify(file)));
    expect(again).toEqual({ ok: true, format: 'PLCN_v3', egg: pelican, warnings: [] });
  });

  it('keeps several commands, the uuid and tags in a PTDL_v2 export as keys the incumbent ignores', () => {
    const many: NormalizedEgg = {
      ...egg,
      uuid: '0b6c4d0e-5b8e-4a57-9d7c-3f7b9c2a1e10',
      tags: ['a'],
      startupCommands: [
        { name: 'A', command: egg.startup },
        { name: 'B', command: 'other' },
      ],
    };
    const file = exportEgg(many);
    expect(file.startup).toBe(egg.startup);
    expect(parseEgg(JSON.parse(JSON.stringify(file)))).toMatchObject({ ok: true, egg: many });
  });

  it('writes the install script byte for byte, CRLF kept', () => {
    const crlf = { ...egg, install: { ...egg.install, script: '#!/bin/bash\r\necho hi\r\n' } };
    expect((exportEgg(crlf).scripts as any).installation.script).toBe('#!/bin/bash\r\necho hi\r\n');
  });

  it('is deterministic for a given export time', () => {
    const at = new Date(0);
    expect(JSON.stringify(exportEgg(egg, { exportedAt: at }))).toBe(
      JSON.stringify(exportEgg(egg, { exportedAt: at })),
    );
  });
});
