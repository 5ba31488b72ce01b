// Every fixture egg must import and survive export → import unchanged. The fixtures are our own files
// (packages/shared/test-fixtures/eggs), written in the shapes the community's eggs come in.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EGG_CONFIG_PARSERS, exportEgg, parseEgg, type NormalizedEgg } from './index.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../test-fixtures/eggs');
const files = readdirSync(FIXTURES).filter((f) => /\.(json|ya?ml)$/u.test(f));

interface RawEgg {
  name: string;
  meta: { version: string };
  config: Record<string, unknown>;
  variables: { env_variable: string; rules: unknown }[];
  scripts: { installation: { script: string | null } };
  images?: string[];
  image?: string | null;
}

const text = (file: string) => readFileSync(path.join(FIXTURES, file), 'utf8');
/** The file as written, before our importer touched it. */
const raw = (file: string) =>
  (file.endsWith('.json') ? JSON.parse(text(file)) : parseYaml(text(file))) as RawEgg;

function imported(file: string): NormalizedEgg {
  const result = parseEgg(text(file));
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  return result.egg;
}

describe('fixture eggs', () => {
  it('finds the fixture files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  // The round trips below are only worth as much as the variety of the files they run on.
  it('cover the shapes eggs come in', () => {
    const raws = files.map(raw);
    const eggs = files.map(imported);
    const formats = new Set(raws.map((r) => r.meta.version));
    expect([...formats].sort()).toEqual(['PLCN_v2', 'PLCN_v3', 'PTDL_v1', 'PTDL_v2']);
    expect(files.some((f) => f.endsWith('.yaml'))).toBe(true);
    // PTDL_v1 names its images as a list or as one image
    expect(raws.some((r) => r.meta.version === 'PTDL_v1' && Array.isArray(r.images))).toBe(true);
    expect(raws.some((r) => r.meta.version === 'PTDL_v1' && typeof r.image === 'string')).toBe(true);
    // config sections as JSON text (with CRLF) and as objects
    const sections = raws.flatMap((r) => [r.config.files, r.config.startup, r.config.logs]);
    expect(sections.some((s) => typeof s === 'string' && s.includes('\r\n'))).toBe(true);
    expect(sections.some((s) => typeof s === 'object' && s !== null)).toBe(true);
    // every config-file parser the daemon knows, and conditional replacements
    const parsers = new Set(eggs.flatMap((e) => Object.values(e.config.files).map((f) => f.parser)));
    expect([...parsers].sort()).toEqual([...EGG_CONFIG_PARSERS].sort());
    const finds = eggs.flatMap((e) => Object.values(e.config.files).flatMap((f) => Object.values(f.find)));
    expect(finds.some((v) => typeof v === 'object' && v !== null)).toBe(true);
    expect(finds.some((v) => typeof v === 'number')).toBe(true);
    // done as one string and as a list; regex patterns; stop as a signal and as a command
    expect(eggs.some((e) => e.config.startup.done.length > 1)).toBe(true);
    expect(eggs.some((e) => e.config.startup.done.length === 1)).toBe(true);
    expect(eggs.some((e) => e.config.startup.done.some((d) => d.startsWith('regex:')))).toBe(true);
    expect(eggs.some((e) => e.config.startup.stripAnsi && e.config.startup.extra)).toBe(true);
    expect(new Set(eggs.map((e) => e.config.stop))).toEqual(
      new Set(['^C', '^SIGTERM', 'stop', 'end', 'quit']),
    );
    expect(eggs.some((e) => e.config.logs.custom === true)).toBe(true);
    // install scripts with CRLF, with LF, and none at all
    const scripts = raws.map((r) => r.scripts.installation.script);
    expect(scripts.some((s) => s?.includes('\r\n'))).toBe(true);
    expect(scripts.some((s) => s !== null && s !== '' && !s.includes('\r'))).toBe(true);
    expect(scripts).toContain(null);
    // several labelled images, an image labelled by itself, several start-up commands, features, denylists
    expect(
      eggs.some((e) => e.dockerImages.length >= 4 && e.dockerImages.every((i) => i.label !== i.image)),
    ).toBe(true);
    expect(eggs.some((e) => e.dockerImages.some((i) => i.label === i.image))).toBe(true);
    expect(eggs.some((e) => e.startupCommands.length > 1)).toBe(true);
    expect(eggs.some((e) => e.features.length > 0) && eggs.some((e) => e.features.length === 0)).toBe(true);
    expect(eggs.some((e) => e.fileDenylist.length > 0)).toBe(true);
    // variables: many in one egg, every kind of rule, rules written as lists
    expect(Math.max(...eggs.map((e) => e.variables.length))).toBeGreaterThanOrEqual(15);
    const rules = eggs.flatMap((e) => e.variables.flatMap((v) => v.rules.split('|')));
    for (const rule of ['nullable', 'boolean', 'url', 'integer', 'numeric', 'alpha_dash', 'alpha_num'])
      expect(rules).toContain(rule);
    for (const prefix of ['regex:', 'in:', 'between:', 'digits_between:', 'size:', 'max:', 'min:'])
      expect(rules.some((r) => r.startsWith(prefix))).toBe(true);
    expect(raws.some((r) => r.variables.some((v) => Array.isArray(v.rules)))).toBe(true);
  });

  it.each(files)('%s imports, and export → import gives the same egg', (file) => {
    const source = raw(file);
    const first = parseEgg(text(file));
    if (!first.ok) throw new Error(JSON.stringify(first.errors));
    expect(first.format).toBe(source.meta.version);
    expect(first.egg.name).toBe(source.name);
    expect(first.egg.variables.map((v) => v.envVariable)).toEqual(
      source.variables.map((v) => v.env_variable),
    );
    expect(first.egg.config.startup.done.length).toBeGreaterThan(0);
    expect(first.egg.dockerImages.length).toBeGreaterThan(0);
    // bytes preserved: CRLF is normalised only when the daemon runs the script
    expect(first.egg.install.script).toBe(source.scripts.installation.script ?? '');
    expect(first.warnings).toEqual([]);

    const exported = exportEgg(first.egg, { exportedAt: new Date('2025-01-02T03:04:05Z') });
    // through text, as a real file would travel
    const second = parseEgg(JSON.stringify(exported));
    if (!second.ok) throw new Error(JSON.stringify(second.errors));
    expect(second.format).toBe('PTDL_v2');
    expect(second.egg).toEqual(first.egg);
    expect(exported.scripts).toEqual({
      installation: { ...(source.scripts.installation as object), script: first.egg.install.script },
    });

    // and through Pelican's format
    const pelican = parseEgg(JSON.stringify(exportEgg(first.egg, { format: 'PLCN_v3' })));
    if (!pelican.ok) throw new Error(JSON.stringify(pelican.errors));
    expect(pelican.format).toBe('PLCN_v3');
    expect(pelican.egg).toEqual(first.egg);
  });

  it('keeps the image labels and their order of a PTDL_v2 file', () => {
    expect(imported('egg-paper.json').dockerImages).toEqual([
      { label: 'Java 21', image: 'ghcr.io/talon-fixtures/java:21' },
      { label: 'Java 17', image: 'ghcr.io/talon-fixtures/java:17' },
      { label: 'Java 11', image: 'ghcr.io/talon-fixtures/java:11' },
    ]);
  });

  it('labels each image of a PTDL_v1 file by itself', () => {
    expect(imported('egg-arena-source.json').dockerImages).toEqual([
      { label: 'ghcr.io/talon-fixtures/source:latest', image: 'ghcr.io/talon-fixtures/source:latest' },
      { label: 'ghcr.io/talon-fixtures/source:legacy', image: 'ghcr.io/talon-fixtures/source:legacy' },
    ]);
  });

  it('decodes config sections that are JSON text', () => {
    const egg = imported('egg-voice-relay.json');
    expect(egg.config.logs).toEqual({ custom: true, location: 'logs/voice.log' });
    expect(egg.config.startup).toEqual({
      done: ['voice relay accepting clients on 0.0.0.0:'],
      stripAnsi: false,
    });
    expect(egg.config.stop).toBe('^C');
    expect(imported('egg-modded-jar.json').config.files['config/loader.json']).toEqual({
      parser: 'json',
      find: {
        'network.port': '{{server.build.default.port}}',
        'network.compression': 256,
        'telemetry.enabled': false,
        'network.proxy': null,
      },
    });
  });

  it('reads a Pelican file: uuid, tags, named start-up commands, list rules', () => {
    const egg = imported('egg-workshop-sandbox.json');
    expect(egg.uuid).toBe('3b6f2c1e-8d4a-4f7b-9e2c-5a1d0c9b8e7f');
    expect(egg.tags).toEqual(['sandbox', 'steamcmd']);
    expect(egg.startupCommands.map((c) => c.name)).toEqual(['Default', 'Without workshop']);
    expect(egg.startup).toBe(egg.startupCommands[0]!.command);
    const mode = egg.variables.find((v) => v.envVariable === 'GAME_MODE');
    expect(mode?.rules).toBe('required|regex:/^(classic|arena|coop)$/');
    expect(egg.variables.find((v) => v.envVariable === 'LUA_RELOAD')?.defaultValue).toBe('0');
  });
});
