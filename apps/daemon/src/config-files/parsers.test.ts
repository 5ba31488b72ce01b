import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseConfig } from '../config/config.ts';
import { rewritePlain } from './file.ts';
import { rewriteIni, splitIniMatch } from './ini.ts';
import { rewriteJson } from './json.ts';
import { rewriteProperties } from './properties.ts';
import type { ReplaceRule } from './rules.ts';
import { configLookup } from './values.ts';
import { rewriteXml } from './xml.ts';
import { rewriteYaml } from './yaml.ts';

const lookup = configLookup(
  parseConfig({ token_id: 'abcdefghijklmnop', token: 't', remote: 'http://panel.test', api: { port: 8443 } }),
);

/** A rule as the panel sends it: `[match, replace_with]` or `[match, replace_with, if_value]`. */
function rules(...list: [string, unknown, string?][]): ReplaceRule[] {
  return list.map(([match, replaceWith, ifValue]) => ({ match, replaceWith, ifValue: ifValue ?? '' }));
}

function noRuleErrors(rule: ReplaceRule, err: Error): never {
  throw new Error(`unexpected rule error for ${rule.match}: ${err.message}`);
}

describe('file parser', () => {
  it.each([
    {
      name: 'replaces whole lines by prefix, keeps the rest, ends every line with \\n',
      text: 'a=1\nmotd=old text\nb=2',
      rules: rules(['motd', 'motd=new']),
      want: 'a=1\nmotd=new\nb=2\n',
    },
    {
      name: 'concatenates the values of several matching rules',
      text: 'server-port=1\n',
      rules: rules(['server', 'X'], ['server-port', 'Y'], ['nomatch', 'Z']),
      want: 'XY\n',
    },
    {
      name: 'does not resolve {{config.*}} and writes non-strings as JSON text',
      text: 'ip\nport\n',
      rules: rules(['ip', '{{config.api.port}}'], ['port', 25565]),
      want: '{{config.api.port}}\n25565\n',
    },
    { name: 'adds no lines to an empty file', text: '', rules: rules(['a', 'b']), want: '' },
  ])('$name', ({ text, rules: r, want }) => {
    expect(rewritePlain(text, r)).toBe(want);
  });
});

describe('properties parser', () => {
  const minecraft =
    '#Minecraft server properties\n#Sun Nov 22 08:00:00 UTC 2026\nserver-ip=\nserver-port=25565\n' +
    '# a comment in the middle\nmotd=A Minecraft Server\nlevel-name \\= : world\n';
  it.each([
    {
      name: 'keeps leading comments and key order, drops later comments, adds new keys last',
      text: minecraft,
      rules: rules(['server-ip', '0.0.0.0'], ['server-port', '30000'], ['query.port', '30000']),
      want:
        '#Minecraft server properties\n#Sun Nov 22 08:00:00 UTC 2026\nserver-ip=0.0.0.0\nserver-port=30000\n' +
        'motd=A Minecraft Server\nlevel-name== : world\nquery.port=30000\n',
    },
    {
      name: 'escapes values as Go ASCII-quoted strings',
      text: '',
      rules: rules(['motd', 'Héllo "x" \\ \t😀\u0001']),
      want: 'motd=H\\u00e9llo \\"x\\" \\\\ \\t\\ud83d\\ude00\\x01\n',
    },
    {
      name: 'reads escapes, separators and continuation lines',
      text: 'motd=\\u00a7aHi\nkey1: v1\nkey2 v2\nlong=a\\\n    b\n! bang comment\n',
      rules: [],
      want: 'motd=\\u00a7aHi\nkey1=v1\nkey2=v2\nlong=ab\n',
    },
    {
      name: 'if_value changes a key only when it exists with that value',
      text: 'a=1\nb=2\n',
      rules: rules(['a', 'x', '1'], ['b', 'y', '1'], ['c', 'z', '1']),
      want: 'a=x\nb=2\n',
    },
    {
      name: 'resolves {{config.*}}; a missing path empties the value',
      text: 'p=1\nq=2\n',
      rules: rules(['p', '{{config.api.port}}'], ['q', '{{config.nothing.here}}']),
      want: 'p=8443\nq=\n',
    },
    {
      name: 'handles CRLF files',
      text: '#head\r\na=1\r\n',
      rules: rules(['a', '2']),
      want: '#head\na=2\n',
    },
  ])('$name', ({ text, rules: r, want }) => {
    expect(rewriteProperties(text, r, lookup)).toBe(want);
  });
});

describe('ini parser', () => {
  it.each([
    ['Server.Port', { section: 'Server', key: 'Port' }],
    ['Server.a.b', { section: 'Server', key: 'a.b' }],
    ['Bare', { section: '', key: 'Bare' }],
    ['[/Script/Engine.GameSession].MaxPlayers', { section: '/Script/Engine.GameSession', key: 'MaxPlayers' }],
  ])('splits %s', (match, want) => {
    expect(splitIniMatch(match)).toEqual(want);
  });

  it.each([
    {
      name: 'sets keys in sections, creates missing keys and sections, keeps comments and spacing',
      text: 'top = 0\n\n[Server]\nPort = 1\n; comment\nName=x\n\n[Other]\nA=1\n',
      rules: rules(
        ['Server.Port', '2'],
        ['Server.Max', '{{config.api.port}}'],
        ['Other.A', '3'],
        ['New.C', '4'],
        ['Bare', '5'],
        ['top', 'zero'],
      ),
      want: 'top = zero\nBare = 5\n\n[Server]\nPort = 2\n; comment\nName=x\nMax = 8443\n\n[Other]\nA=3\n\n[New]\nC = 4\n',
    },
    {
      name: 'ignores if_value and handles bracketed sections with dots',
      text: '[/Script/Engine.GameSession]\nMaxPlayers=10\n',
      rules: rules(['[/Script/Engine.GameSession].MaxPlayers', '70', 'never-equal']),
      want: '[/Script/Engine.GameSession]\nMaxPlayers=70\n',
    },
    {
      name: 'creates a file from nothing',
      text: '',
      rules: rules(['Main.port', '27015']),
      want: '[Main]\nport = 27015\n',
    },
  ])('$name', ({ text, rules: r, want }) => {
    expect(rewriteIni(text, r, lookup)).toBe(want);
  });
});

const bungee = `listeners:
  - host: 0.0.0.0:25577
    query_port: 25577
    motd: Hello
servers:
  lobby:
    address: localhost:25565
  other:
    address: 10.0.0.5:25565
  loop:
    address: 127.0.0.1
  noaddr:
    motd: x
online_mode: false
`;

describe('yaml parser', () => {
  it('edits list elements, one wildcard with a regex rule, typed values', () => {
    const out = rewriteYaml(
      bungee,
      rules(
        ['listeners[0].host', '0.0.0.0:30000'],
        ['listeners[0].query_port', '30000'],
        [
          'servers.*.address',
          '{{config.docker.network.interface}}$2',
          'regex:^(127\\.0\\.0\\.1|localhost)(:\\d{1,5})?$',
        ],
        ['online_mode', true],
        ['ip_forward', 'yes'],
      ),
      lookup,
      noRuleErrors,
    );
    expect(parseYaml(out)).toStrictEqual({
      listeners: [{ host: '0.0.0.0:30000', query_port: 30000, motd: 'Hello' }],
      servers: {
        lobby: { address: '127.0.0.1:25565' },
        other: { address: '10.0.0.5:25565' }, // did not match: unchanged
        loop: { address: '127.0.0.1' },
        noaddr: { motd: 'x' }, // lacks the path: skipped, not created
      },
      online_mode: true,
      ip_forward: 'yes',
    });
    expect(Object.keys(parseYaml(out) as object)).toEqual([
      'listeners',
      'servers',
      'online_mode',
      'ip_forward',
    ]);
  });

  it('creates missing objects and lists (index 0 only) and reports impossible paths', () => {
    const errors: string[] = [];
    const out = rewriteYaml(
      '',
      rules(['a.b.c', '1'], ['list[0].x', 'y'], ['scalars[0]', 'v'], ['far[2]', 'no']),
      lookup,
      (rule, err) => errors.push(`${rule.match}: ${err.message}`),
    );
    expect(parseYaml(out)).toStrictEqual({ a: { b: { c: 1 } }, list: [{ x: 'y' }], scalars: ['v'] });
    expect(errors).toEqual(['far[2]: list element [2] does not exist']);
  });

  it('plain if_value compares the key itself: equal → changed, different → kept, missing → created', () => {
    const out = rewriteYaml(
      'a: old\nb: other\n',
      rules(['a', 'new', 'old'], ['b', 'new', 'old'], ['c', 'new', 'old']),
      lookup,
      noRuleErrors,
    );
    expect(parseYaml(out)).toStrictEqual({ a: 'new', b: 'other', c: 'new' });
  });

  it('keeps comments, quoting and untouched values; writes only what changed', () => {
    const text =
      "# Proxy settings\nhost: 0.0.0.0:25577 # listen address\nmotd: 'yes'\nflag: yes\nnested:\n  # inner\n  port: 1\n";
    const out = rewriteYaml(
      text,
      rules(['nested.port', '2'], ['nested.extra[0]', 'x'], ['host', 'a:1']),
      lookup,
      noRuleErrors,
    );
    expect(out).toBe(
      "# Proxy settings\nhost: a:1 # listen address\nmotd: 'yes'\nflag: yes\nnested:\n  # inner\n  port: 2\n  extra:\n    - x\n",
    );
  });

  it('refuses a file with several documents (the caller logs it and leaves the file)', () => {
    expect(() => rewriteYaml('a: 1\n---\nb: 2\n', rules(['a', '2']), lookup, noRuleErrors)).toThrow();
  });

  it('a regex rule leaves a missing key missing', () => {
    const out = rewriteYaml('a: 1\n', rules(['b', 'x', 'regex:.*']), lookup, noRuleErrors);
    expect(parseYaml(out)).toStrictEqual({ a: 1 });
  });
});

describe('json parser', () => {
  it('writes 4-space JSON with nested creation, list index, wildcard and typed values', () => {
    const text = JSON.stringify({ server: { port: 1, name: 'x' }, players: [{ max: 1 }, { max: 2 }] });
    const out = rewriteJson(
      text,
      rules(
        ['server.port', '27015'],
        ['server.lan', false],
        ['players.*.max', '64'],
        ['players[1].name', 'second'],
        ['extra.deep.key', 'value'],
        ['server.name', 'changed', 'x'],
        ['server.port', 'no', 'not-27015'],
      ),
      lookup,
      noRuleErrors,
    );
    expect(out).toBe(
      JSON.stringify(
        {
          server: { port: 27015, name: 'changed', lan: false },
          players: [{ max: 64 }, { max: 64, name: 'second' }],
          extra: { deep: { key: 'value' } },
        },
        null,
        4,
      ) + '\n',
    );
    expect(out).toContain('\n    "server": {\n        "port": 27015,');
  });

  it('refuses a document that is not JSON (the caller logs it and leaves the file)', () => {
    expect(() => rewriteJson('{nope', rules(['a', 'b']), lookup, noRuleErrors)).toThrow();
  });
});

describe('xml parser', () => {
  const doc =
    '<?xml version="1.0" encoding="utf-8"?>\n<!-- settings -->\n<Settings>\n    <Server name="a">\n' +
    '        <Port>1</Port>\n    </Server>\n    <Server name="b"><Port>2</Port></Server>\n    <Empty/>\n</Settings>\n';

  it('sets element text, attributes with [name=value], creates missing elements, indents by 2', () => {
    const out = rewriteXml(
      doc,
      rules(
        ['Settings.Server.Port', '{{config.api.port}}'],
        ["Settings.Server[@name='b']", "[name='renamed']"],
        ['Settings.New.Deep', 'x & <y>'],
      ),
      lookup,
      noRuleErrors,
    );
    expect(out).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<!-- settings -->\n<Settings>\n  <Server name="a">\n' +
        '    <Port>8443</Port>\n  </Server>\n  <Server name="renamed">\n    <Port>8443</Port>\n  </Server>\n' +
        '  <Empty/>\n  <New>\n    <Deep>x &amp; &lt;y&gt;</Deep>\n  </New>\n</Settings>\n',
    );
  });

  it('a wildcard path edits what exists and creates nothing', () => {
    const out = rewriteXml(
      doc,
      rules(['Settings.*.Port', '9'], ['Settings.*.Missing', 'no']),
      lookup,
      noRuleErrors,
    );
    expect(out.match(/<Port>9<\/Port>/g)).toHaveLength(2);
    expect(out).not.toContain('Missing');
  });

  it('gives an empty file a declaration and the root of the first rule', () => {
    expect(rewriteXml('', rules(['Config.Net.Port', '27015']), lookup, noRuleErrors)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Config>\n  <Net>\n    <Port>27015</Port>\n  </Net>\n</Config>\n',
    );
  });

  it('adds the root element to a file that has only a declaration and a comment', () => {
    expect(
      rewriteXml('<?xml version="1.0"?>\n<!-- c -->\n', rules(['Cfg.A', '1']), lookup, noRuleErrors),
    ).toBe('<?xml version="1.0"?>\n<!-- c -->\n<Cfg>\n  <A>1</A>\n</Cfg>\n');
  });

  it('reports a rule whose root does not match and changes nothing', () => {
    const errors: string[] = [];
    const out = rewriteXml(doc, rules(['Other.Port', '1']), lookup, (r, e) => errors.push(e.message));
    expect(errors).toEqual(['the root element is not <Other>']);
    expect(out).not.toContain('Other');
  });
});
