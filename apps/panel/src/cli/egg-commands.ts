import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { EGG_EXPORT_FORMATS, type EggExportFormat } from '@talon/shared';
import type { AppContext } from '../context.ts';
import { EggEditService } from '../modules/eggs/egg-edit.service.ts';
import { BUILT_IN_NEST, EggImportError, type EggImportOutcome } from '../modules/eggs/eggs.service.ts';
import { CLI_ACTOR, CliError, idOf, printTable, refusalsAsCliErrors, type Command } from './command.ts';

/** What an egg file may be called; the content decides the format, the name only the search. */
const EGG_FILE = /\.(json|ya?ml)$/iu;

/** The files named on the command line; a folder stands for every egg file below it, sorted. */
export function eggFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && EGG_FILE.test(entry.name)) out.push(full);
    }
  };
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      throw new CliError(`cannot read ${p}: ${(e as Error).message}`);
    }
    if (isDir) walk(p);
    else out.push(p);
  }
  return out;
}

function outcomeLine(file: string, o: EggImportOutcome, nest: string): string {
  const egg = `egg "${o.egg.name}" (id ${o.egg.id})`;
  if (o.action === 'imported') return `imported  ${file}: ${egg} in nest "${nest}"`;
  const m = o.matched!;
  return `updated   ${file}: ${egg}, the egg "${m.name}" of the same ${m.by} in nest "${nest}"`;
}

/** Imports each file on its own: one refusal does not stop the others. */
async function importAll(ctx: AppContext, files: string[], nestName: string): Promise<number> {
  const nest = await ctx.services.eggs.ensureNest(nestName, 'Imported templates.');
  const counts = { imported: 0, updated: 0, refused: 0 };
  for (const file of files) {
    let outcome: EggImportOutcome;
    try {
      outcome = await ctx.services.eggs.importFile(readFileSync(file, 'utf8'), nest.id);
    } catch (e) {
      const problems =
        e instanceof EggImportError
          ? e.problems
          : e instanceof Error && 'code' in e
            ? [`cannot read the file: ${e.message}`]
            : null;
      if (!problems) throw e;
      counts.refused++;
      console.log(`refused   ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
      continue;
    }
    counts[outcome.action]++;
    console.log(outcomeLine(file, outcome, nest.name));
    for (const w of outcome.warnings) console.log(`  warning: ${w}`);
  }
  console.log(`${counts.imported} imported, ${counts.updated} updated, ${counts.refused} refused`);
  return counts.refused > 0 ? 1 : 0;
}

/** The egg of `--egg ID`, or a refusal naming egg:list. */
async function eggOf(ctx: AppContext, raw: unknown) {
  const id = idOf(typeof raw === 'string' ? raw : '');
  if (!id) throw new CliError('--egg takes a numeric egg id (egg:list shows them)');
  const egg = await ctx.repositories.eggs.findEgg(id);
  if (!egg) throw new CliError(`no egg with id ${id} (egg:list shows them)`);
  return egg;
}

/** Eggs from the command line (issues 16, 17); the same services as the API. */
export const eggCommands: Record<string, Command> = {
  'egg:list': {
    summary: 'List the eggs (server templates) with their ids and nests',
    usage: '',
    options: {},
    help: {},
    example: 'npm run -s panel -- egg:list',
    async run(ctx) {
      const { rows: nests } = await ctx.repositories.eggs.listNests(0, 100_000);
      const nestName = new Map(nests.map((n) => [n.id, n.name]));
      const eggs = await ctx.repositories.eggs.eggsOfNests(nests.map((n) => n.id));
      printTable(
        ['ID', 'NAME', 'NEST'],
        eggs.map((e) => [String(e.id), e.name, nestName.get(e.nest_id) ?? '']),
        'No eggs. Import one with egg:import.',
      );
      return 0;
    },
  },
  'egg:delete': {
    summary: 'Delete an egg that no server uses',
    usage: '--egg ID',
    options: { egg: { type: 'string' } },
    help: { egg: 'the egg id (egg:list shows them)' },
    example: 'npm run -s panel -- egg:delete --egg 7',
    async run(ctx, v) {
      const egg = await eggOf(ctx, v.egg);
      const edits = new EggEditService(ctx.repositories.eggs, ctx.services.activity);
      await refusalsAsCliErrors(() => edits.delete(egg, CLI_ACTOR));
      console.log(`Deleted egg ${egg.id} "${egg.name}".`);
      return 0;
    },
  },
  'egg:import': {
    summary:
      'Import eggs (PTDL_v1/v2, PLCN_v1–v3; JSON or YAML) from files or folders into a nest, updating one of the same uuid or name',
    usage: '--file F|DIR [--file F2 …] [--nest NAME]',
    options: { file: { type: 'string', multiple: true }, nest: { type: 'string' } },
    help: {
      file: 'an egg file or a folder of them (*.json, *.yaml, *.yml); repeat for several',
      nest: `the nest to import into, created when missing (default "${BUILT_IN_NEST}")`,
    },
    example: 'npm run -s panel -- egg:import --file ./eggs/minecraft --nest Minecraft',
    async run(ctx, v) {
      const given = (Array.isArray(v.file) ? v.file : []).filter((f): f is string => typeof f === 'string');
      if (given.length === 0)
        throw new CliError('--file is required (a file or a folder; repeat it for several)');
      const files = eggFiles(given);
      if (files.length === 0)
        throw new CliError(`no egg files (*.json, *.yaml, *.yml) in ${given.join(', ')}`);
      return importAll(ctx, files, (v.nest as string | undefined) ?? BUILT_IN_NEST);
    },
  },
  'egg:export': {
    summary: 'Print an egg as PTDL_v2 JSON (or PLCN_v3 with --format PLCN_v3)',
    usage: '--egg ID [--format PTDL_v2|PLCN_v3]',
    options: { egg: { type: 'string' }, format: { type: 'string' } },
    help: {
      egg: 'the egg id (egg:list shows them)',
      format: 'PTDL_v2 (default; Pterodactyl) or PLCN_v3 (Pelican)',
    },
    example: 'npm run -s panel -- egg:export --egg 7 > egg-paper.json',
    async run(ctx, v) {
      const format = (v.format as string | undefined) ?? 'PTDL_v2';
      if (!(EGG_EXPORT_FORMATS as readonly string[]).includes(format))
        throw new CliError(`--format takes ${EGG_EXPORT_FORMATS.join(' or ')}`);
      const egg = await eggOf(ctx, v.egg);
      console.log(JSON.stringify(await ctx.services.eggs.export(egg.id, format as EggExportFormat), null, 2));
      return 0;
    },
  },
};
