// Every real-world egg in the shared fixtures must import and survive export → import unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportEgg, parseEgg } from './index.ts';

const FIXTURES = '/work/shared/fixtures/eggs';
const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));

describe('fixture eggs', () => {
  it('finds the fixture files', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });

  it.each(files)('%s imports, and export → import gives the same egg', (file) => {
    const raw = JSON.parse(readFileSync(`${FIXTURES}/${file}`, 'utf8')) as {
      name: string;
      meta: { version: string };
      variables: { env_variable: string }[];
      scripts: { installation: { script: string | null } };
    };
    const first = parseEgg(raw);
    if (!first.ok) throw new Error(JSON.stringify(first.errors));
    expect(first.format).toBe(raw.meta.version);
    expect(first.egg.name).toBe(raw.name);
    expect(first.egg.variables.map((v) => v.envVariable)).toEqual(raw.variables.map((v) => v.env_variable));
    expect(first.egg.config.startup.done.length).toBeGreaterThan(0);
    expect(first.egg.dockerImages.length).toBeGreaterThan(0);
    // bytes preserved: CRLF is normalised only when the daemon runs the script
    expect(first.egg.install.script).toBe(raw.scripts.installation.script ?? '');
    expect(first.warnings).toEqual([]);

    const exported = exportEgg(first.egg, { exportedAt: new Date('2025-01-02T03:04:05Z') });
    // through text, as a real file would travel
    const second = parseEgg(JSON.stringify(exported));
    if (!second.ok) throw new Error(JSON.stringify(second.errors));
    expect(second.format).toBe('PTDL_v2');
    expect(second.egg).toEqual(first.egg);
    expect(exported.scripts).toEqual({
      installation: { ...(raw.scripts.installation as object), script: first.egg.install.script },
    });

    // and through Pelican's format
    const pelican = parseEgg(JSON.stringify(exportEgg(first.egg, { format: 'PLCN_v3' })));
    if (!pelican.ok) throw new Error(JSON.stringify(pelican.errors));
    expect(pelican.format).toBe('PLCN_v3');
    expect(pelican.egg).toEqual(first.egg);
  });

  it('keeps the image labels and their order of a PTDL_v2 file', () => {
    const result = parseEgg(readFileSync(`${FIXTURES}/egg-paper.json`, 'utf8'));
    expect(result.ok && result.egg.dockerImages[0]).toEqual({
      label: 'Java 21',
      image: 'ghcr.io/pterodactyl/yolks:java_21',
    });
  });

  it('decodes config sections that are JSON text', () => {
    const result = parseEgg(readFileSync(`${FIXTURES}/egg-teamspeak3-server.json`, 'utf8'));
    if (!result.ok) throw new Error('did not import');
    expect(result.egg.config.logs).toEqual({ custom: true, location: 'logs/ts3.log' });
    expect(result.egg.config.stop).toBe('^C');
  });
});
