import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEgg } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltInEggs } from '../../bootstrap.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { EggImportError } from './eggs.service.ts';

// Our own fixture eggs, in the shapes the community's eggs come in (PTDL_v1/v2, Pelican JSON and YAML).
const FIXTURES = path.resolve(import.meta.dirname, '../../../../../packages/shared/test-fixtures/eggs');
const fixtureFiles = readdirSync(FIXTURES).filter((f) => /\.(json|ya?ml)$/u.test(f));

let panel: TestPanel;
beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
});

describe('egg import and export', () => {
  it('imports every fixture egg with its variables, and exports it back to an equal egg', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Fixtures', 'test');
    expect(fixtureFiles.length).toBeGreaterThanOrEqual(10);
    for (const file of fixtureFiles) {
      const text = readFileSync(path.join(FIXTURES, file), 'utf8');
      const egg = await panel.ctx.services.eggs.import(text, nest.id);
      const source = parseEgg(text);
      if (!source.ok) throw new Error(`${file} does not parse`);
      const variables = await panel.ctx.repositories.eggs.variables(egg.id);
      expect(variables.map((v) => v.env_variable)).toEqual(source.egg.variables.map((v) => v.envVariable));
      const exported = parseEgg(await panel.ctx.services.eggs.export(egg.id));
      if (!exported.ok) throw new Error(`${file} export does not parse: ${JSON.stringify(exported.errors)}`);
      // an exported egg carries its identity (the panel's uuid for it)
      expect(exported.egg).toEqual({ ...source.egg, uuid: egg.uuid });
    }
  });

  it('keeps what Pelican eggs carry: every start-up command, tags, sort, uuid; CRLF scripts byte for byte', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Pelican', 'test');
    const file = JSON.parse(readFileSync(path.join(FIXTURES, 'egg-paper.json'), 'utf8')) as Record<
      string,
      any
    >;
    file.meta.version = 'PLCN_v3';
    file.uuid = '9d1c7a52-3e4f-4b6a-8c9d-0e1f2a3b4c5d';
    file.tags = ['minecraft'];
    delete file.startup;
    file.startup_commands = {
      Default: 'java -jar {{SERVER_JARFILE}}',
      'Aikar flags': 'java -XX:+UseG1GC -jar {{SERVER_JARFILE}}',
    };
    file.scripts.installation.script = '#!/bin/ash\r\necho crlf\r\n';
    file.variables = file.variables.map((v: Record<string, unknown>, i: number) => ({ ...v, sort: 10 - i }));
    const outcome = await panel.ctx.services.eggs.importFile(JSON.stringify(file), nest.id);
    expect(outcome).toMatchObject({ action: 'imported', warnings: [] });
    expect(outcome.egg.uuid).toBe('9d1c7a52-3e4f-4b6a-8c9d-0e1f2a3b4c5d');
    expect(outcome.egg.script_install).toBe('#!/bin/ash\r\necho crlf\r\n');
    const variables = await panel.ctx.repositories.eggs.variables(outcome.egg.id);
    expect(variables.map((v) => v.sort)).toEqual([...variables.map((v) => v.sort)].sort((a, b) => a! - b!));

    const pelican = await panel.ctx.services.eggs.export(outcome.egg.id, 'PLCN_v3');
    expect(pelican).toMatchObject({
      meta: { version: 'PLCN_v3' },
      uuid: file.uuid,
      tags: ['minecraft'],
      startup_commands: file.startup_commands,
    });
    const ptdl = await panel.ctx.services.eggs.export(outcome.egg.id);
    expect(ptdl).toMatchObject({ meta: { version: 'PTDL_v2' }, startup: 'java -jar {{SERVER_JARFILE}}' });
    expect((ptdl.scripts as any).installation.script).toBe('#!/bin/ash\r\necho crlf\r\n');

    // the same uuid under another name updates that egg, and says so
    file.name = 'Paper (renamed)';
    const again = await panel.ctx.services.eggs.importFile(file, nest.id);
    expect(again).toMatchObject({
      action: 'updated',
      matched: { id: outcome.egg.id, name: outcome.egg.name, by: 'uuid' },
    });
    expect(again.egg.id).toBe(outcome.egg.id);
  });

  it('lists unknown placeholders as warnings of the import', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Warnings', 'test');
    const file = JSON.parse(readFileSync(path.join(FIXTURES, 'egg-paper.json'), 'utf8')) as Record<
      string,
      any
    >;
    file.config.files = JSON.stringify({
      'server.properties': { parser: 'properties', find: { 'server-port': '{{server.allocation.port}}' } },
    });
    const outcome = await panel.ctx.services.eggs.importFile(file, nest.id);
    expect(outcome.warnings).toEqual([
      'config.files["server.properties"].find["server-port"]: the placeholder {{server.allocation.port}} is unknown and will be empty',
    ]);
  });

  it('updates an egg of the same name in place, keeping variable rows that still exist', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Updates', 'test');
    const text = readFileSync(path.join(FIXTURES, 'egg-paper.json'), 'utf8');
    const first = await panel.ctx.services.eggs.import(text, nest.id);
    const before = await panel.ctx.repositories.eggs.variables(first.id);
    const changed = JSON.parse(text) as { startup: string; variables: { env_variable: string }[] };
    changed.startup = 'java -jar {{SERVER_JARFILE}}';
    changed.variables = changed.variables.slice(1);
    const second = await panel.ctx.services.eggs.import(changed, nest.id);
    expect(second.id).toBe(first.id);
    expect(second.uuid).toBe(first.uuid);
    expect(second.startup).toBe('java -jar {{SERVER_JARFILE}}');
    const after = await panel.ctx.repositories.eggs.variables(first.id);
    expect(after.map((v) => v.id)).toEqual(before.slice(1).map((v) => v.id));
  });

  it('refuses a bad file, saying what is wrong, and stores nothing', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Refusals', 'test');
    const bad = JSON.parse(readFileSync(path.join(FIXTURES, 'egg-paper.json'), 'utf8')) as {
      meta: { version: string };
    };
    bad.meta.version = 'PTDL_v9';
    const error = await panel.ctx.services.eggs.import(bad, nest.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EggImportError);
    expect((error as EggImportError).problems.join('\n')).toContain('meta.version');
    const stored = await panel.ctx.db.db
      .selectFrom('eggs')
      .select('id')
      .where('nest_id', '=', nest.id)
      .execute();
    expect(stored).toEqual([]);
    await expect(panel.ctx.services.eggs.import('{ not json', nest.id)).rejects.toBeInstanceOf(
      EggImportError,
    );
  });

  it('refuses an egg whose install entrypoint or container is shell text, and stores nothing', async () => {
    const nest = await panel.ctx.services.eggs.ensureNest('Injections', 'test');
    const bad = JSON.parse(readFileSync(path.join(FIXTURES, 'egg-paper.json'), 'utf8')) as {
      scripts: { installation: { entrypoint: string; container: string } };
    };
    bad.scripts.installation.entrypoint = '$(touch${IFS}/tmp/x)';
    bad.scripts.installation.container = 'alpine;id';
    const error = await panel.ctx.services.eggs.import(bad, nest.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EggImportError);
    const problems = (error as EggImportError).problems.join('\n');
    expect(problems).toContain('scripts.installation.entrypoint');
    expect(problems).toContain('scripts.installation.container');
    const stored = await panel.ctx.db.db
      .selectFrom('eggs')
      .select('id')
      .where('nest_id', '=', nest.id)
      .execute();
    expect(stored).toEqual([]);
  });

  it('imports the built-in eggs on first start only', async () => {
    const shipped = readdirSync(path.resolve(import.meta.dirname, '../../../../../eggs')).filter((f) =>
      f.endsWith('.json'),
    );
    expect(await ensureBuiltInEggs(panel.ctx)).toBe(shipped.length);
    expect(await ensureBuiltInEggs(panel.ctx)).toBe(0);
    const nest = await panel.ctx.repositories.eggs.findNestByName('Talon');
    const eggs = await panel.ctx.db.db
      .selectFrom('eggs')
      .select('name')
      .where('nest_id', '=', nest!.id)
      .execute();
    expect(eggs.map((e) => e.name).sort()).toHaveLength(shipped.length);
  });
});
