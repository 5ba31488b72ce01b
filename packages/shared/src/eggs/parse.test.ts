// Bad egg files: each case breaks one thing and names the exact path and sentence the operator sees.
import { describe, expect, it } from 'vitest';
import { formatEggError, parseEgg, type EggError } from './index.ts';

/** A small valid PTDL_v2 file; each bad case changes one part of a fresh copy. */
function goodV2(): Record<string, any> {
  return {
    meta: { version: 'PTDL_v2', update_url: null },
    exported_at: '2025-01-01T00:00:00+00:00',
    name: 'Tiny',
    author: 'tiny@example.org',
    description: 'A tiny egg.',
    features: null,
    docker_images: { Main: 'example/tiny:1' },
    file_denylist: ['', 'secret.txt'],
    startup: './tiny --port {{SERVER_PORT}}',
    config: {
      files:
        '{"tiny.properties": {"parser": "properties", "find": {"port": "{{server.build.default.port}}"}}}',
      startup: '{"done": "Ready", "userInteraction": []}',
      logs: '{}',
      stop: 'stop',
    },
    scripts: {
      installation: {
        script: '#!/bin/bash\r\necho ok\r\n',
        container: 'example/installer',
        entrypoint: 'bash',
      },
    },
    variables: [
      {
        name: 'Players',
        description: 'Slots',
        env_variable: 'MAX_PLAYERS',
        default_value: '10',
        user_viewable: true,
        user_editable: true,
        rules: 'required|integer|between:1,100',
        field_type: 'text',
      },
      {
        name: 'Password',
        description: null,
        env_variable: 'PASSWORD',
        default_value: null,
        user_viewable: 1,
        user_editable: 0,
        rules: 'nullable|string|regex:/^(\\w+|-)$/',
        field_type: 'text',
      },
    ],
  };
}

/** Our own PTDL_v1 sample: `images` instead of `docker_images`, no field types. */
function goodV1(): Record<string, any> {
  const file = goodV2();
  file.meta.version = 'PTDL_v1';
  delete file.docker_images;
  file.images = ['example/tiny:1', 'example/tiny:2', 'example/tiny:1'];
  for (const v of file.variables) delete v.field_type;
  return file;
}

describe('parseEgg on good files', () => {
  it('normalises a PTDL_v2 file', () => {
    const result = parseEgg(goodV2());
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.format).toBe('PTDL_v2');
    const egg = result.egg;
    expect(egg.features).toEqual([]);
    expect(egg.fileDenylist).toEqual(['secret.txt']);
    expect(egg.config.startup).toEqual({ done: ['Ready'], stripAnsi: false, extra: { userInteraction: [] } });
    expect(result.warnings).toEqual([]);
    expect(egg.config.files).toEqual({
      'tiny.properties': { parser: 'properties', find: { port: '{{server.build.default.port}}' } },
    });
    expect(egg.install.script).toBe('#!/bin/bash\r\necho ok\r\n');
    expect(egg.variables[1]).toEqual({
      name: 'Password',
      description: '',
      envVariable: 'PASSWORD',
      defaultValue: '',
      userViewable: true,
      userEditable: false,
      rules: 'nullable|string|regex:/^(\\w+|-)$/',
      fieldType: 'text',
      sort: null,
    });
  });

  it('normalises a PTDL_v1 file: images become labelled by themselves, duplicates dropped', () => {
    const result = parseEgg(goodV1());
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.format).toBe('PTDL_v1');
    expect(result.egg.dockerImages).toEqual([
      { label: 'example/tiny:1', image: 'example/tiny:1' },
      { label: 'example/tiny:2', image: 'example/tiny:2' },
    ]);
    expect(result.egg.variables.every((v) => v.fieldType === 'text')).toBe(true);
  });

  it('accepts a PTDL_v1 file with a single `image`', () => {
    const file = goodV1();
    delete file.images;
    file.image = 'example/old:1';
    const result = parseEgg(file);
    expect(result.ok && result.egg.dockerImages).toEqual([
      { label: 'example/old:1', image: 'example/old:1' },
    ]);
  });

  it('accepts config sections given as objects, and PHP-style empty lists', () => {
    const file = goodV2();
    file.config.files = [];
    file.config.startup = { done: ['A', 'regex:^B \\d+$'], strip_ansi: true };
    file.config.logs = '[]';
    const result = parseEgg(file);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.egg.config.files).toEqual({});
    expect(result.egg.config.logs).toEqual({});
    expect(result.egg.config.startup).toEqual({ done: ['A', 'regex:^B \\d+$'], stripAnsi: true });
  });

  it('accepts the file as text', () => {
    expect(parseEgg(JSON.stringify(goodV2())).ok).toBe(true);
  });

  it('accepts the install interpreters by name or absolute path, and image references with registry, tag and digest', () => {
    for (const entrypoint of ['bash', 'ash', 'sh', '/bin/bash', '/usr/bin/sh', '/usr/local/bin/bash']) {
      const file = goodV2();
      file.scripts.installation.entrypoint = entrypoint;
      expect(parseEgg(file).ok, entrypoint).toBe(true);
    }
    for (const container of [
      'alpine',
      'ghcr.io/pterodactyl/installers:debian',
      'localhost:5000/a/b_c.d-e:1.0',
      `debian@sha256:${'a'.repeat(64)}`,
    ]) {
      const file = goodV2();
      file.scripts.installation.container = container;
      expect(parseEgg(file).ok, container).toBe(true);
    }
  });
});

type Case = [title: string, change: (f: Record<string, any>) => unknown, errors: EggError[]];

const bad: Case[] = [
  ['not an object', () => [], [{ path: '', message: 'an egg file must be a JSON object' }]],
  [
    'unsupported version',
    (f) => (f.meta.version = 'PTDL_v9'),
    [
      {
        path: 'meta.version',
        message: '"PTDL_v9" is not a supported egg format (PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2, PLCN_v3)',
      },
    ],
  ],
  ['missing meta', (f) => delete f.meta, [{ path: 'meta', message: 'is required' }]],
  [
    'missing version',
    (f) => delete f.meta.version,
    [{ path: 'meta.version', message: 'is required (PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2, PLCN_v3)' }],
  ],
  ['empty name', (f) => (f.name = ''), [{ path: 'name', message: 'must not be empty' }]],
  [
    'name too long',
    (f) => (f.name = 'x'.repeat(192)),
    [{ path: 'name', message: 'must be at most 191 characters' }],
  ],
  [
    'author not an email',
    (f) => (f.author = 'Tiny Team'),
    [{ path: 'author', message: 'must be an email address' }],
  ],
  [
    'startup not a string',
    (f) => (f.startup = 42),
    [{ path: 'startup', message: 'must be a string (found a number)' }],
  ],
  [
    'no docker images',
    (f) => (f.docker_images = {}),
    [{ path: 'docker_images', message: 'must list at least one image' }],
  ],
  [
    'docker image not a string',
    (f) => (f.docker_images = { Main: 1 }),
    [{ path: 'docker_images.Main', message: 'must be a string (found a number)' }],
  ],
  [
    'missing docker_images',
    (f) => delete f.docker_images,
    [{ path: 'docker_images', message: 'is required' }],
  ],
  [
    'features not a list',
    (f) => (f.features = 'eula'),
    [{ path: 'features', message: 'must be a list (found a string)' }],
  ],
  [
    'config.files bad JSON',
    (f) => (f.config.files = '{\n  "a": }'),
    [{ path: 'config.files', message: 'is not valid JSON (line 2, column 8)' }],
  ],
  [
    'config.files unknown parser',
    (f) => (f.config.files = '{"server.properties": {"parser": "toml", "find": {}}}'),
    [
      {
        path: 'config.files["server.properties"].parser',
        message: '"toml" is not a supported parser (file, yaml, yml, properties, ini, json, xml)',
      },
    ],
  ],
  [
    'config.files missing find',
    (f) => (f.config.files = { 'a.yml': { parser: 'yaml' } }),
    [{ path: 'config.files["a.yml"].find', message: 'is required' }],
  ],
  [
    'config.files path leaves the server',
    (f) => (f.config.files = { '../etc/x.ini': { parser: 'ini', find: {} } }),
    [
      {
        path: 'config.files["../etc/x.ini"]',
        message: 'must be a relative path inside the server directory',
      },
    ],
  ],
  [
    'config.files find value is a list',
    (f) => (f.config.files = { 'a.ini': { parser: 'ini', find: { k: [1] } } }),
    [
      {
        path: 'config.files["a.ini"].find.k',
        message: 'must be a replacement value or an object of { "current value": replacement }',
      },
    ],
  ],
  [
    'config.startup without done',
    (f) => (f.config.startup = '{"strip_ansi": true}'),
    [{ path: 'config.startup.done', message: 'is required' }],
  ],
  [
    'config.startup not an object',
    (f) => (f.config.startup = '"Ready"'),
    [{ path: 'config.startup', message: 'must be an object (found a string)' }],
  ],
  [
    'config.startup missing',
    (f) => delete f.config.startup,
    [{ path: 'config.startup', message: 'is required' }],
  ],
  [
    'config.startup done is a number',
    (f) => (f.config.startup = { done: 5 }),
    [{ path: 'config.startup.done', message: 'must be a string or a list of strings' }],
  ],
  [
    'config.startup done bad regex',
    (f) => (f.config.startup = { done: ['ok', 'regex:(['] }),
    [{ path: 'config.startup.done[1]', message: 'is not a valid regular expression' }],
  ],
  [
    'install entrypoint that is a shell command (it must never reach a shell)',
    (f) => (f.scripts.installation.entrypoint = '$(touch${IFS}/tmp/x)'),
    [
      {
        path: 'scripts.installation.entrypoint',
        message: 'must be bash, ash or sh (or /bin/, /usr/bin/ or /usr/local/bin/ followed by one of them)',
      },
    ],
  ],
  [
    'install entrypoint that is another program',
    (f) => (f.scripts.installation.entrypoint = 'python3'),
    [
      {
        path: 'scripts.installation.entrypoint',
        message: 'must be bash, ash or sh (or /bin/, /usr/bin/ or /usr/local/bin/ followed by one of them)',
      },
    ],
  ],
  [
    'install container that is not an image reference',
    (f) => (f.scripts.installation.container = 'alpine; curl x | sh'),
    [
      {
        path: 'scripts.installation.container',
        message: 'must be a Docker image reference (for example ghcr.io/owner/image:tag)',
      },
    ],
  ],
  ['config.stop empty', (f) => (f.config.stop = ''), [{ path: 'config.stop', message: 'must not be empty' }]],
  [
    'config.stop bare caret',
    (f) => (f.config.stop = '^'),
    [{ path: 'config.stop', message: 'must name a signal after "^" (for example ^C or ^SIGTERM)' }],
  ],
  [
    'config.logs bad JSON',
    (f) => (f.config.logs = '{'),
    [{ path: 'config.logs', message: 'is not valid JSON (line 1, column 2)' }],
  ],
  [
    'missing install container',
    (f) => delete f.scripts.installation.container,
    [{ path: 'scripts.installation.container', message: 'is required' }],
  ],
  [
    'env_variable with a dash',
    (f) => (f.variables[1].env_variable = 'SERVER-NAME'),
    [{ path: 'variables[1].env_variable', message: 'must be letters, digits and underscores' }],
  ],
  [
    'reserved env_variable',
    (f) => (f.variables[0].env_variable = 'SERVER_PORT'),
    [
      {
        path: 'variables[0].env_variable',
        message: '"SERVER_PORT" is reserved: the daemon sets it for every server',
      },
    ],
  ],
  [
    'user_viewable not a boolean',
    (f) => (f.variables[0].user_viewable = 'yes'),
    [{ path: 'variables[0].user_viewable', message: 'must be true or false' }],
  ],
  [
    'field_type other than text',
    (f) => (f.variables[0].field_type = 'select'),
    [{ path: 'variables[0].field_type', message: 'must be "text" (found "select")' }],
  ],
  [
    'unknown rule',
    (f) => (f.variables[0].rules = 'required|intger'),
    [{ path: 'variables[0].rules', message: '"intger" is not a known validation rule' }],
  ],
  [
    'rule missing a parameter',
    (f) => (f.variables[0].rules = 'required|between:1'),
    [{ path: 'variables[0].rules', message: '"between:1" must be written as between:<min>,<max>' }],
  ],
  [
    'rule with a non-numeric parameter',
    (f) => (f.variables[0].rules = 'max:ten'),
    [{ path: 'variables[0].rules', message: '"max:ten" must be written as max:<number>' }],
  ],
  [
    'regex without delimiters',
    (f) => (f.variables[0].rules = 'regex:^\\d+$'),
    [
      {
        path: 'variables[0].rules',
        message: 'the pattern of "regex" must be written between delimiters, like /^[a-z]+$/',
      },
    ],
  ],
  [
    'regex that does not compile',
    (f) => (f.variables[0].rules = 'regex:/^(\\d+$/'),
    [
      {
        path: 'variables[0].rules',
        message: 'the pattern of "regex" is not a valid regular expression (/^(\\d+$/: Unterminated group)',
      },
    ],
  ],
  [
    'regex with an unsupported modifier',
    (f) => (f.variables[0].rules = 'regex:/^a b$/x'),
    [
      {
        path: 'variables[0].rules',
        message: 'the pattern of "regex" uses the modifier "x", which is not supported (i, m, s, u, D)',
      },
    ],
  ],
  [
    'several problems at once',
    (f) => {
      f.name = '';
      f.variables[0].env_variable = 'A B';
      f.config.stop = '';
    },
    [
      { path: 'name', message: 'must not be empty' },
      { path: 'config.stop', message: 'must not be empty' },
      { path: 'variables[0].env_variable', message: 'must be letters, digits and underscores' },
    ],
  ],
];

describe('parseEgg on bad PTDL_v2 files', () => {
  it.each(bad)('%s', (_title, change, errors) => {
    const file = goodV2();
    const replaced = change(file);
    const result = parseEgg(Array.isArray(replaced) ? replaced : file);
    expect(result).toEqual({ ok: false, errors });
  });
});

describe('parseEgg on bad PTDL_v1 files', () => {
  it('requires images or image', () => {
    const file = goodV1();
    delete file.images;
    expect(parseEgg(file)).toEqual({
      ok: false,
      errors: [{ path: 'images', message: 'a PTDL_v1 egg needs "images" (a list) or "image"' }],
    });
  });

  it('reports bad image entries by index', () => {
    const file = goodV1();
    file.images = ['ok:1', ''];
    expect(parseEgg(file)).toEqual({
      ok: false,
      errors: [{ path: 'images[1]', message: 'must not be empty' }],
    });
  });

  it('ignores field_type, which v1 did not have', () => {
    const file = goodV1();
    file.variables[0].field_type = 'whatever';
    expect(parseEgg(file).ok).toBe(true);
  });
});

describe('formatEggError', () => {
  it('joins path and message', () => {
    expect(
      formatEggError({
        path: 'variables[2].env_variable',
        message: 'must be letters, digits and underscores',
      }),
    ).toBe('variables[2].env_variable: must be letters, digits and underscores');
    expect(formatEggError({ path: '', message: 'an egg file must be a JSON object' })).toBe(
      'an egg file must be a JSON object',
    );
  });
});

describe('parseEgg on text that is not JSON', () => {
  it('says where the JSON breaks', () => {
    expect(parseEgg('{\n  "meta": {\n')).toEqual({
      ok: false,
      errors: [{ path: '', message: 'the file is not valid JSON at line 3, column 1' }],
    });
  });
});
