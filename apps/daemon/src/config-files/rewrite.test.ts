import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { rewriteConfigFiles, type RewriteDeps } from './rewrite.ts';

const config = parseConfig({ token_id: 'abcdefghijklmnop', token: 't', remote: 'http://panel.test' });
const isRoot = process.getuid?.() === 0;

let base: string;
let root: string;
let outside: string;
let logs: { msg: string; file?: string; err?: string }[];

function deps(owner: RewriteDeps['owner'] = null): RewriteDeps {
  const log = pino({ level: 'warn' }, { write: (l: string) => logs.push(JSON.parse(l) as (typeof logs)[0]) });
  return { config, log, owner };
}

function target(configs: unknown[]) {
  return { uuid: 'u-1', dir: root, config: { process_configuration: { configs } } } as Parameters<
    typeof rewriteConfigFiles
  >[0];
}

const serverProperties = (file = 'server.properties') => ({
  parser: 'properties',
  file,
  replace: [{ match: 'server-port', replace_with: '25570' }],
});

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'talon-cfg-'));
  root = path.join(base, 'volumes', 'server');
  outside = path.join(base, 'outside');
  await mkdir(root, { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret'), 'OUTSIDE\n');
  logs = [];
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('rewriteConfigFiles', () => {
  it('creates missing files with their parents, in every format', async () => {
    const out = await rewriteConfigFiles(
      target([
        serverProperties('a/b/server.properties'),
        { parser: 'yaml', file: 'config.yml', replace: [{ match: 'listeners[0].port', replace_with: '1' }] },
        { parser: 'json', file: 'cfg/settings.json', replace: [{ match: 'port', replace_with: 2 }] },
        { parser: 'ini', file: 'game.ini', replace: [{ match: 'Net.Port', replace_with: '3' }] },
        { parser: 'xml', file: 'x.xml', replace: [{ match: 'Root.Port', replace_with: '4' }] },
        { parser: 'file', file: 'plain.txt', replace: [{ match: 'x', replace_with: 'y' }] },
        { parser: 'unknown', file: 'other.cfg', replace: [{ match: 'x', replace_with: 'y' }] },
      ]),
      deps(),
    );
    expect(out.map((o) => o.result)).toEqual(Array(7).fill('written'));
    const read = (f: string) => readFile(path.join(root, f), 'utf8');
    expect(await read('a/b/server.properties')).toBe('server-port=25570\n');
    expect(await read('config.yml')).toBe('listeners:\n  - port: 1\n');
    expect(await read('cfg/settings.json')).toBe('{\n    "port": 2\n}\n');
    expect(await read('game.ini')).toBe('[Net]\nPort = 3\n');
    expect(await read('x.xml')).toContain('<Root>\n  <Port>4</Port>\n</Root>');
    expect(await read('plain.txt')).toBe('');
    expect(await read('other.cfg')).toBe('');
  });

  it('rewrites an existing file in place and leaves an already correct one untouched', async () => {
    const file = path.join(root, 'server.properties');
    await writeFile(file, '#Minecraft server properties\nserver-port=25565\nmotd=hi\n');
    const first = await rewriteConfigFiles(target([serverProperties()]), deps());
    expect(first[0]!.result).toBe('written');
    expect(await readFile(file, 'utf8')).toBe('#Minecraft server properties\nserver-port=25570\nmotd=hi\n');
    const second = await rewriteConfigFiles(target([serverProperties()]), deps());
    expect(second[0]!.result).toBe('unchanged');
  });

  it.skipIf(!isRoot)('gives created files and directories to the server user', async () => {
    await rewriteConfigFiles(
      target([serverProperties('deep/dir/server.properties')]),
      deps({ uid: 4321, gid: 4322 }),
    );
    for (const p of ['deep', 'deep/dir', 'deep/dir/server.properties']) {
      const st = await stat(path.join(root, p));
      expect([p, st.uid, st.gid]).toEqual([p, 4321, 4322]);
    }
  });

  it('refuses paths that leave the server root, logs them, writes nothing outside', async () => {
    // root = <base>/volumes/server, so ../../outside is <base>/outside and ../../etc/x is <base>/etc/x.
    await symlink(outside, path.join(root, 'abs-link'));
    await symlink('../../outside', path.join(root, 'rel-link'));
    await symlink(path.join(outside, 'secret'), path.join(root, 'server.properties'));
    const out = await rewriteConfigFiles(
      target([
        serverProperties('../../etc/x'),
        serverProperties('../../outside/secret'),
        serverProperties('abs-link/server.properties'),
        serverProperties('rel-link/server.properties'),
        serverProperties('server.properties'),
        serverProperties('fine/server.properties'),
      ]),
      deps(),
    );
    expect(out.map((o) => o.result)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'written']);
    for (const o of out.slice(0, 5)) expect(o.error).toMatch(/^outside_root/);
    expect(existsSync(path.join(base, 'etc'))).toBe(false);
    expect((await readdir(outside)).sort()).toEqual(['secret']);
    expect(await readFile(path.join(outside, 'secret'), 'utf8')).toBe('OUTSIDE\n');
    const logged = logs.filter((l) => l.msg === 'configuration file not updated').map((l) => l.file);
    expect(logged.sort()).toEqual([
      '../../etc/x',
      '../../outside/secret',
      'abs-link/server.properties',
      'rel-link/server.properties',
      'server.properties',
    ]);
    expect(await readFile(path.join(root, 'fine/server.properties'), 'utf8')).toBe('server-port=25570\n');
  });

  it('a file that cannot be parsed is left alone, logged, and does not stop the others', async () => {
    await writeFile(path.join(root, 'broken.json'), '{not json');
    await mkdir(path.join(root, 'adir'));
    const out = await rewriteConfigFiles(
      target([
        { parser: 'json', file: 'broken.json', replace: [{ match: 'a', replace_with: 'b' }] },
        { parser: 'yaml', file: 'adir', replace: [{ match: 'a', replace_with: 'b' }] },
        serverProperties(),
      ]),
      deps(),
    );
    expect(out.map((o) => o.result)).toEqual(['failed', 'failed', 'written']);
    expect(await readFile(path.join(root, 'broken.json'), 'utf8')).toBe('{not json');
    expect(logs.filter((l) => l.msg === 'configuration file not updated')).toHaveLength(2);
  });

  it('applies several entries for the same file one after the other', async () => {
    const out = await rewriteConfigFiles(
      target([
        { parser: 'properties', file: 'server.properties', replace: [{ match: 'a', replace_with: '1' }] },
        { parser: 'properties', file: './server.properties', replace: [{ match: 'b', replace_with: '2' }] },
      ]),
      deps(),
    );
    expect(out.map((o) => o.result)).toEqual(['written', 'written']);
    expect(await readFile(path.join(root, 'server.properties'), 'utf8')).toBe('a=1\nb=2\n');
  });

  it('ignores malformed entries and accepts the legacy `value` key', async () => {
    const out = await rewriteConfigFiles(
      target([
        'nonsense',
        { parser: 'properties' },
        {
          parser: 'properties',
          file: 'legacy.properties',
          replace: [{ match: 'k', value: 'v' }, { nomatch: 1 }],
        },
      ]),
      deps(),
    );
    expect(out).toEqual([{ file: 'legacy.properties', parser: 'properties', result: 'written' }]);
    expect(await readFile(path.join(root, 'legacy.properties'), 'utf8')).toBe('k=v\n');
    expect(logs.filter((l) => l.msg === 'configuration file entry ignored')).toHaveLength(2);
  });
});
