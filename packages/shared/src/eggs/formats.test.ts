// Every format and quirk of issue 17, each on a small egg written here from the formats' documentation.
import { describe, expect, it } from 'vitest';
import {
  isKnownPlaceholder,
  parseEgg,
  readVariableRules,
  resolvePlaceholders,
  unknownPlaceholders,
  type PlaceholderValues,
} from './index.ts';

function ptdl(): Record<string, any> {
  return {
    meta: { version: 'PTDL_v2', update_url: null },
    name: 'Small',
    author: 'small@example.org',
    description: 'A small egg.',
    features: [],
    docker_images: { Main: 'example/small:1' },
    file_denylist: [],
    startup: './small --port {{SERVER_PORT}}',
    config: {
      files:
        '{"small.properties": {"parser": "properties", "find": {"port": "{{server.build.default.port}}"}}}',
      startup: '{"done": "Ready"}',
      logs: '{}',
      stop: 'stop',
    },
    scripts: { installation: { script: 'echo hi', container: 'example/installer', entrypoint: 'bash' } },
    variables: [
      {
        name: 'Players',
        description: '',
        env_variable: 'PLAYERS',
        default_value: '10',
        user_viewable: true,
        user_editable: true,
        rules: 'required|integer',
        field_type: 'text',
      },
    ],
  };
}

/** A Pelican file as its JSON exports look: uuid, tags, list rules, sort, config as objects. */
function plcn(version: 'PLCN_v1' | 'PLCN_v2' | 'PLCN_v3'): Record<string, any> {
  const file = ptdl();
  file.meta.version = version;
  file.uuid = '5F0B3A57-1C2D-4E5F-8A9B-0C1D2E3F4A5B';
  file.tags = ['minecraft', 'java'];
  file.image = null; // Pelican's egg icon, not a docker image
  file.config.files = {
    '/config/small.yml': { parser: 'yaml', find: { 'server.port': '{{server.allocations.default.port}}' } },
  };
  file.config.startup = { done: ['Ready'] };
  file.variables = [
    { ...file.variables[0], rules: ['required', 'integer', 'between:1,100'], sort: 2 },
    {
      name: 'World',
      description: 'Level name',
      env_variable: 'WORLD',
      default_value: 'world',
      user_viewable: true,
      user_editable: true,
      rules: ['required', 'string', 'max:32'],
      sort: 1,
    },
  ];
  if (version === 'PLCN_v3') {
    delete file.startup;
    file.startup_commands = { Default: './small --port {{SERVER_PORT}}', Debug: './small --debug' };
  }
  return file;
}

const PLCN_V3_YAML = `# Pelican exports YAML
_comment: 'DO NOT EDIT'
meta:
  version: PLCN_v3
  update_url: null
name: Small YAML
author: small@example.org
uuid: 7c9e6679-7425-40de-944b-e07fc1f90ae7
description: |
  Two lines
  of text.
tags:
  - test
features: []
docker_images:
  'Java 21': 'example/java:21'
  'Java 17': 'example/java:17'
file_denylist: []
startup_commands:
  Default: 'java -jar {{SERVER_JARFILE}}'
  'Low memory': 'java -Xmx512M -jar {{SERVER_JARFILE}}'
config:
  files:
    server.properties:
      parser: properties
      find:
        server-port: '{{server.allocations.default.port}}'
        motd: '{{server.environment.MOTD}}'
  startup:
    done: ')! For help, type '
  logs: {}
  stop: stop
scripts:
  installation:
    script: "#!/bin/ash\\r\\necho install\\r\\n"
    container: 'example/installer:alpine'
    entrypoint: ash
variables:
  - name: Jar
    description: ''
    env_variable: SERVER_JARFILE
    default_value: server.jar
    user_viewable: true
    user_editable: true
    rules:
      - required
      - 'regex:/^([\\w\\d._-]+)(\\.jar)$/'
    sort: 2
  - name: MOTD
    description: ''
    env_variable: MOTD
    default_value: Hello
    user_viewable: true
    user_editable: true
    rules: [nullable, string]
    sort: 1
`;

describe('formats', () => {
  it.each(['PLCN_v1', 'PLCN_v2', 'PLCN_v3'] as const)(
    'reads %s as JSON: uuid, tags, list rules, sort',
    (v) => {
      const result = parseEgg(JSON.stringify(plcn(v)));
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(result.format).toBe(v);
      expect(result.egg.uuid).toBe('5f0b3a57-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
      expect(result.egg.tags).toEqual(['minecraft', 'java']);
      expect(result.egg.dockerImages).toEqual([{ label: 'Main', image: 'example/small:1' }]);
      // sort decides the order
      expect(result.egg.variables.map((x) => [x.envVariable, x.sort, x.rules])).toEqual([
        ['WORLD', 1, 'required|string|max:32'],
        ['PLAYERS', 2, 'required|integer|between:1,100'],
      ]);
      expect(result.warnings).toEqual([]);
    },
  );

  it('keeps every PLCN_v3 start-up command in order, the first the default', () => {
    const result = parseEgg(plcn('PLCN_v3'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.egg.startupCommands).toEqual([
      { name: 'Default', command: './small --port {{SERVER_PORT}}' },
      { name: 'Debug', command: './small --debug' },
    ]);
    expect(result.egg.startup).toBe('./small --port {{SERVER_PORT}}');
  });

  it('reads PLCN_v3 as YAML, detected by content, with native config mappings', () => {
    const result = parseEgg(PLCN_V3_YAML);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.format).toBe('PLCN_v3');
    expect(result.egg.description).toBe('Two lines\nof text.\n');
    expect(result.egg.startupCommands.map((c) => c.name)).toEqual(['Default', 'Low memory']);
    expect(result.egg.dockerImages[0]).toEqual({ label: 'Java 21', image: 'example/java:21' });
    expect(result.egg.config.files['server.properties']!.find.motd).toBe('{{server.environment.MOTD}}');
    expect(result.egg.variables.map((v) => v.envVariable)).toEqual(['MOTD', 'SERVER_JARFILE']);
    expect(result.egg.variables[1]!.rules).toBe('required|regex:/^([\\w\\d._-]+)(\\.jar)$/');
    expect(result.egg.install.script).toBe('#!/bin/ash\r\necho install\r\n');
  });

  it('reads Pelican content under a PTDL_v2 label (rules as a list or an object)', () => {
    const file = ptdl();
    file.variables[0].rules = ['required', 'integer'];
    const listed = parseEgg(file);
    expect(listed.ok && listed.egg.variables[0]!.rules).toBe('required|integer');
    file.variables[0].rules = { 0: 'required', 1: 'string', 2: 'max:5' };
    const objected = parseEgg(file);
    expect(objected.ok && objected.egg.variables[0]!.rules).toBe('required|string|max:5');
  });

  it('takes docker_images given as a list, each image its own name', () => {
    const file = ptdl();
    file.docker_images = ['example/a:1', 'example/b:2'];
    const result = parseEgg(file);
    expect(result.ok && result.egg.dockerImages).toEqual([
      { label: 'example/a:1', image: 'example/a:1' },
      { label: 'example/b:2', image: 'example/b:2' },
    ]);
  });

  it('refuses a file that is neither JSON nor YAML, and YAML that is not an egg', () => {
    expect(parseEgg('a: [1, 2')).toMatchObject({ ok: false, errors: [{ path: '' }] });
    const bad = parseEgg('a: [1, 2');
    expect(!bad.ok && bad.errors[0]!.message).toMatch(/^the file is neither JSON nor valid YAML/u);
    expect(parseEgg('- just\n- a list\n')).toEqual({
      ok: false,
      errors: [{ path: '', message: 'an egg file must be a JSON object' }],
    });
  });

  it('refuses a file without any start-up command', () => {
    const file = plcn('PLCN_v3');
    delete file.startup_commands;
    expect(parseEgg(file)).toEqual({ ok: false, errors: [{ path: 'startup', message: 'is required' }] });
    file.startup_commands = {};
    expect(parseEgg(file)).toEqual({
      ok: false,
      errors: [{ path: 'startup_commands', message: 'must name at least one command' }],
    });
  });

  it('refuses a uuid that is not one', () => {
    const file = plcn('PLCN_v1');
    file.uuid = 'nope';
    expect(parseEgg(file)).toEqual({ ok: false, errors: [{ path: 'uuid', message: 'must be a UUID' }] });
  });
});

type RuleCase = [input: unknown, rules: string, warnings: string[], problems: string[]];

const RULES: RuleCase[] = [
  ['required|string|', 'required|string', [], []],
  ['|required||string', 'required|string', [], []],
  [' required | String |MAX:20', 'required|string|max:20', [], []],
  ['required|int', 'required|integer', [], []],
  ['nullable|bool', 'nullable|boolean', [], []],
  ['Int|between:1,5', 'integer|between:1,5', [], []],
  [
    'nullable:string',
    'nullable',
    ['"nullable:string": "nullable" takes no parameters; "string" is ignored'],
    [],
  ],
  ['required|regex:/^(a|b)$/', 'required|regex:/^(a|b)$/', [], []],
  [['required', 'regex:/^(a|b)$/'], 'required|regex:/^(a|b)$/', [], []],
  [{ a: 'required', b: 'numeric' }, 'required|numeric', [], []],
  [['required|string', 'max:3'], 'required|string|max:3', [], []],
  ['', '', [], []],
  [null, '', [], []],
  ['required|intger', 'required', [], ['"intger" is not a known validation rule']],
  ['required| Strng ', 'required', [], ['"Strng" is not a known validation rule']],
  ['max:ten', '', [], ['"max:ten" must be written as max:<number>']],
  [['required', 5], 'required', [], ['each rule in the list must be a string']],
  [42, '', [], ['must be a string of rules joined by "|", or a list of rules']],
];

describe('variable rules read as Laravel reads them', () => {
  it.each(RULES)('%j', (input, rules, warnings, problems) => {
    expect(readVariableRules(input)).toEqual({ rules, warnings, problems });
  });

  it('puts a stray parameter in the import warnings, not the errors', () => {
    const file = ptdl();
    file.variables[0].rules = 'required|nullable:string|integer';
    const result = parseEgg(file);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.egg.variables[0]!.rules).toBe('required|nullable|integer');
    expect(result.warnings).toEqual([
      {
        path: 'variables[0].rules',
        message: '"nullable:string": "nullable" takes no parameters; "string" is ignored',
      },
    ]);
  });

  it('still refuses an unknown rule, precisely', () => {
    const file = ptdl();
    file.variables[0].rules = ['required', 'numbr'];
    expect(parseEgg(file)).toEqual({
      ok: false,
      errors: [{ path: 'variables[0].rules', message: '"numbr" is not a known validation rule' }],
    });
  });
});

type Leniency = [title: string, change: (f: Record<string, any>) => void, check: (r: any) => void];

const LENIENCIES: Leniency[] = [
  [
    'a config path starting with / means the same path inside the server',
    (f) => (f.config.files = { '/cfg/a.ini': { parser: 'ini', find: { k: 'v' } } }),
    (r) => expect(Object.keys(r.egg.config.files)).toEqual(['/cfg/a.ini']),
  ],
  [
    'file_denylist "" is an empty list',
    (f) => (f.file_denylist = ''),
    (r) => expect(r.egg.fileDenylist).toEqual([]),
  ],
  [
    'a missing config.logs is empty',
    (f) => delete f.config.logs,
    (r) => expect(r.egg.config.logs).toEqual({}),
  ],
  [
    'an empty done string means running on the first line',
    (f) => (f.config.startup = '{"done": ""}'),
    (r) => expect(r.egg.config.startup.done).toEqual(['']),
  ],
  [
    'config.startup.userInteraction survives',
    (f) => (f.config.startup = '{"done": "Ready", "userInteraction": ["Go"]}'),
    (r) => expect(r.egg.config.startup.extra).toEqual({ userInteraction: ['Go'] }),
  ],
  [
    'duplicate variable names are merged, the later wins, with a warning',
    (f) => f.variables.push({ ...f.variables[0], env_variable: 'players', default_value: '20' }),
    (r) => {
      expect(r.egg.variables).toHaveLength(1);
      expect(r.egg.variables[0].defaultValue).toBe('20');
      expect(r.warnings).toEqual([
        {
          path: 'variables[1].env_variable',
          message: '"players" repeats an earlier variable; they were merged (this definition wins)',
        },
      ]);
    },
  ],
  [
    'an unknown placeholder is a warning, known Pelican ones are not',
    (f) =>
      (f.config.files = {
        'a.yml': {
          parser: 'yaml',
          find: {
            port: '{{server.allocations.default.port}}',
            ip: '{{ server.allocations.default.ip }}',
            name: '{{server.environment.PLAYERS}}',
            odd: { '1': '{{server.build.nonsense}}' },
            host: '{{config.docker.network.interface}}',
          },
        },
      }),
    (r) =>
      expect(r.warnings).toEqual([
        {
          path: 'config.files["a.yml"].find.odd',
          message: 'the placeholder {{server.build.nonsense}} is unknown and will be empty',
        },
      ]),
  ],
  [
    'an unknown placeholder in the start-up command is a warning',
    (f) => (f.startup = './small --port {{server.allocations.default.port}} --x {{server.what}}'),
    (r) =>
      expect(r.warnings).toEqual([
        { path: 'startup', message: 'the placeholder {{server.what}} is unknown and will be empty' },
      ]),
  ],
];

describe('leniencies of the incumbent and Pelican', () => {
  it.each(LENIENCIES)('%s', (_title, change, check) => {
    const file = ptdl();
    change(file);
    const result = parseEgg(file);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    check(result);
  });

  it('still refuses a config path that leaves the server', () => {
    const file = ptdl();
    file.config.files = { '/../etc/x.ini': { parser: 'ini', find: {} } };
    expect(parseEgg(file)).toEqual({
      ok: false,
      errors: [
        {
          path: 'config.files["/../etc/x.ini"]',
          message: 'must be a relative path inside the server directory',
        },
      ],
    });
  });
});

const VALUES: PlaceholderValues = {
  ip: '127.0.0.1',
  port: '25565',
  memory: '1024',
  swap: '0',
  io: '500',
  cpu: '100',
  disk: '2048',
  threads: '',
  image: 'example/small:1',
  oomDisabled: 'false',
  uuid: 'u-1',
  suspended: 'false',
  skipScripts: 'false',
  env: { MOTD: 'Hello', PLAYERS: '10' },
};

describe('placeholders', () => {
  it.each([
    ['{{server.build.default.port}}', '25565'],
    ['{{server.allocations.default.port}}', '25565'],
    ['{{ server.allocations.default.ip }}', '127.0.0.1'],
    ['{{server.build.env.SERVER_PORT}}', '25565'],
    ['{{server.environment.SERVER_MEMORY}}', '1024'],
    ['{{server.build.memory_limit}}M', '1024M'],
    ['{{server.build.disk_space}}', '2048'],
    ['{{env.MOTD}}', 'Hello'],
    ['{{env.SERVER_PORT}}:{{env.SERVER_IP}}', '25565:127.0.0.1'],
    ['{{server.build.env.MOTD}}', 'Hello'],
    ['{{server.environment.MOTD}} x{{server.build.environment.PLAYERS}}', 'Hello x10'],
    ['{{server.environment.NOPE}}', ''],
    ['{{config.docker.network.interface}}', '{{config.docker.network.interface}}'],
    ['{{SERVER_PORT}}', '{{SERVER_PORT}}'],
  ])('%s → %j', (text, expected) => {
    expect(resolvePlaceholders(text, VALUES)).toBe(expected);
  });

  it('reports an unknown placeholder when resolving it to nothing', () => {
    const seen: string[] = [];
    expect(resolvePlaceholders('a{{server.what.ever}}b', VALUES, (p) => seen.push(p))).toBe('ab');
    expect(seen).toEqual(['server.what.ever']);
  });

  it('lists unknown placeholders once each', () => {
    expect(unknownPlaceholders('{{server.x}} {{server.x}} {{env.OK}} {{server.uuid}} {{server.y}}')).toEqual([
      'server.x',
      'server.y',
    ]);
    expect(isKnownPlaceholder('server.allocations.default.port')).toBe(true);
    expect(isKnownPlaceholder('server.environment.')).toBe(false);
  });
});
