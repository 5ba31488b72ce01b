import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { exportEgg, formatEggError, parseEgg, type EggError, type EggExportFormat } from '@talon/shared';
import type { Egg, Nest } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import { eggColumns, toNormalizedEgg, variableColumns } from './eggs.mapper.ts';
import type { EggsRepository } from './eggs.repository.ts';

export const BUILT_IN_EGGS_DIR = path.resolve(import.meta.dirname, '../../../../../eggs');
export const BUILT_IN_NEST = 'Talon';

export class EggImportError extends Error {
  constructor(
    public readonly problems: string[],
    /** the same problems with their JSON paths, for the API's per-field errors */
    public readonly errors: EggError[] = [],
  ) {
    super(`The egg file cannot be imported:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** What one import did: a new egg, or which egg it updated; and what was accepted leniently. */
export interface EggImportOutcome {
  egg: Egg;
  action: 'imported' | 'updated';
  /** the egg that was updated, and whether it was found by the file's uuid or by name */
  matched?: { id: number; name: string; by: 'uuid' | 'name' };
  /** `path: message` sentences (a rule parameter ignored, an unknown placeholder…) */
  warnings: string[];
}

/**
 * Server templates: import (PTDL_v1/v2, PLCN_v1–v3, JSON or YAML; new or replacing), export
 * (PTDL_v2, or PLCN_v3 on request), the built-in set.
 */
export class EggsService {
  constructor(private readonly repo: EggsRepository) {}

  async ensureNest(name: string, description: string, author = 'support@talon.invalid'): Promise<Nest> {
    const found = await this.repo.findNestByName(name);
    if (found) return found;
    const at = nowIso();
    return this.repo.insertNest({
      uuid: randomUUID(),
      author,
      name,
      description,
      created_at: at,
      updated_at: at,
    });
  }

  /**
   * Imports an egg file into a nest. An egg of the same uuid (the file's own, Pelican) or else of
   * the same name in that nest is updated in place, so its servers keep their variable values.
   */
  async import(json: unknown, nestId: number): Promise<Egg> {
    return (await this.importFile(json, nestId)).egg;
  }

  /** `import`, saying what happened: the CLI and the API report it per file. */
  async importFile(json: unknown, nestId: number): Promise<EggImportOutcome> {
    if (!(await this.repo.findNest(nestId))) throw errors.notFound();
    const parsed = parseEgg(json);
    if (!parsed.ok) throw new EggImportError(parsed.errors.map(formatEggError), parsed.errors);
    const egg = parsed.egg;
    const at = nowIso();
    const byUuid = egg.uuid ? await this.repo.findEggByUuid(egg.uuid) : undefined;
    // A uuid already used by an egg of another nest is not ours to overwrite from here.
    const sameUuid = byUuid && byUuid.nest_id === nestId ? byUuid : undefined;
    const existing = sameUuid ?? (await this.repo.findEggByName(nestId, egg.name));
    const saved = await this.repo.save(
      {
        ...eggColumns(egg),
        uuid: existing?.uuid ?? (byUuid ? randomUUID() : (egg.uuid ?? randomUUID())),
        nest_id: nestId,
        created_at: at,
        updated_at: at,
      },
      variableColumns(egg, at),
      existing?.id,
    );
    return {
      egg: saved,
      action: existing ? 'updated' : 'imported',
      ...(existing
        ? {
            matched: {
              id: existing.id,
              name: existing.name,
              by: sameUuid ? ('uuid' as const) : ('name' as const),
            },
          }
        : {}),
      warnings: parsed.warnings.map(formatEggError),
    };
  }

  async export(eggId: number, format: EggExportFormat = 'PTDL_v2'): Promise<Record<string, unknown>> {
    const row = await this.repo.findEgg(eggId);
    if (!row) throw errors.notFound();
    return exportEgg(toNormalizedEgg(row, await this.repo.variables(eggId)), { format });
  }

  /** Imports (or refreshes) every egg shipped in the repository's `eggs/` folder. */
  async importBuiltIns(dir = BUILT_IN_EGGS_DIR): Promise<Egg[]> {
    const nest = await this.ensureNest(
      BUILT_IN_NEST,
      'Templates that ship with Talon and run without downloads.',
    );
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    const eggs: Egg[] = [];
    for (const file of files)
      eggs.push(await this.import(readFileSync(path.join(dir, file), 'utf8'), nest.id));
    return eggs;
  }
}
