import { exportEgg, formatEggError, parseEgg, type EggError, type NormalizedEgg } from '@talon/shared';
import type { Egg } from '../../db/types.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { flag, validateBody } from '../application/validation.ts';
import { eggColumns, toNormalizedEgg } from './eggs.mapper.ts';
import type { EggsRepository } from './eggs.repository.ts';

/** Types of the body's containers; the egg format's own rules check everything inside them. */
const SHAPE = {
  name: 'sometimes|string',
  description: 'sometimes|nullable|string',
  docker_images: 'sometimes|array',
  startup: 'sometimes|string',
  config: 'sometimes|array',
  script: 'sometimes|array',
  'script.privileged': 'sometimes|boolean',
};

type Obj = Record<string, unknown>;

/**
 * Each editable field: where it sits in the request body, where in a PTDL_v2 file (so the
 * importer's rules and messages apply unchanged), and the columns it is stored in.
 */
const FIELDS: { body: string[]; file: string; columns: (keyof ReturnType<typeof eggColumns>)[] }[] = [
  { body: ['name'], file: 'name', columns: ['name'] },
  { body: ['description'], file: 'description', columns: ['description'] },
  { body: ['docker_images'], file: 'docker_images', columns: ['docker_images'] },
  { body: ['startup'], file: 'startup', columns: ['startup', 'startup_commands'] },
  { body: ['config', 'files'], file: 'config.files', columns: ['config_files'] },
  { body: ['config', 'startup'], file: 'config.startup', columns: ['config_startup'] },
  { body: ['config', 'logs'], file: 'config.logs', columns: ['config_logs'] },
  { body: ['config', 'stop'], file: 'config.stop', columns: ['config_stop'] },
  { body: ['config', 'file_denylist'], file: 'file_denylist', columns: ['file_denylist'] },
  { body: ['script', 'install'], file: 'scripts.installation.script', columns: ['script_install'] },
  { body: ['script', 'container'], file: 'scripts.installation.container', columns: ['script_container'] },
  { body: ['script', 'entry'], file: 'scripts.installation.entrypoint', columns: ['script_entry'] },
];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function bodyValue(body: Obj, path: string[]): { found: boolean; value?: unknown } {
  let at: unknown = body;
  for (const key of path) {
    if (!isObj(at) || !(key in at)) return { found: false };
    at = at[key];
  }
  return { found: true, value: at };
}

function setFileValue(file: Obj, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let at = file;
  for (const key of keys.slice(0, -1)) at = at[key] as Obj;
  at[keys[keys.length - 1] as string] = value;
}

/** A file path of the importer's error → the request field it came from (`scripts.installation.script` → `script.install`). */
export function bodyFieldOf(filePath: string): string {
  for (const f of FIELDS) {
    if (filePath === f.file || filePath.startsWith(`${f.file}.`) || filePath.startsWith(`${f.file}[`))
      return f.body.join('.') + filePath.slice(f.file.length);
  }
  if (filePath.startsWith('startup_commands')) return 'startup';
  return filePath;
}

/** Egg edits, deletion and export through the application API (extensions, docs/api.md). */
export class EggEditService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly activity: ActivityService,
  ) {}

  /** The egg of a nest, or 404. */
  async get(nestId: number, eggId: number): Promise<Egg> {
    const egg = await this.repo.findEgg(eggId);
    if (!egg || egg.nest_id !== nestId) throw errors.notFound();
    return egg;
  }

  private async normalized(egg: Egg): Promise<NormalizedEgg> {
    return toNormalizedEgg(egg, await this.repo.variables(egg.id));
  }

  /**
   * Partial update: the fields given replace the stored ones. The edited egg is written out as a
   * PTDL_v2 file and read back by the importer, so an edit is held to exactly the rules of an import.
   */
  async update(egg: Egg, body: unknown, actor: ActivityActor): Promise<Egg> {
    const input = await validateBody<Obj>(body, SHAPE, {});
    const current = await this.normalized(egg);
    const file = exportEgg(current);
    const given = FIELDS.map((f) => ({ f, ...bodyValue(input, f.body) })).filter((g) => g.found);
    for (const { f, value } of given)
      setFileValue(file, f.file, value === null && f.file === 'description' ? '' : value);
    if ('startup' in input && current.startupCommands.length > 1) {
      // The default (first) named command is the one `startup` names; the others stay.
      const [first, ...rest] = current.startupCommands;
      file.startup_commands = Object.fromEntries(
        [{ name: first?.name ?? 'Default', command: input.startup }, ...rest].map((c) => [c.name, c.command]),
      );
    }
    const parsed = parseEgg(file);
    if (!parsed.ok) throw new ValidationFailed(parsed.errors.map(toFailure));

    const columns = eggColumns(parsed.egg);
    const changes: Obj = {};
    for (const { f } of given) for (const c of f.columns) changes[c] = columns[c];
    if ('description' in input && input.description === null) changes.description = null;
    const privileged = bodyValue(input, ['script', 'privileged']);
    if (privileged.found) changes.script_is_privileged = flag(privileged.value);
    await this.repo.updateEgg(egg.id, { ...changes, updated_at: nowIso() });
    await this.activity.log('egg:update', actor, [{ type: 'egg', id: egg.id }], {
      fields: [...given.map((g) => g.f.body.join('.')), ...(privileged.found ? ['script.privileged'] : [])],
    });
    return (await this.repo.findEgg(egg.id)) as Egg;
  }

  async delete(egg: Egg, actor: ActivityActor): Promise<void> {
    if (await this.repo.eggHasServers(egg.id))
      throw errors.display('Cannot delete an egg that servers still use.');
    if (await this.repo.eggHasChildren(egg.id))
      throw errors.display(
        'Cannot delete an egg that other eggs copy their configuration or install script from.',
      );
    await this.repo.deleteEgg(egg.id);
    await this.activity.log('egg:delete', actor, [], { id: egg.id, name: egg.name, nest_id: egg.nest_id });
  }

  /** The egg as a PTDL_v2 file (what `egg:export` writes): importing it gives the same egg. */
  async export(egg: Egg): Promise<Record<string, unknown>> {
    return exportEgg(await this.normalized(egg));
  }
}

/** An importer problem as a 422 entry on the request's field. */
function toFailure(e: EggError) {
  const field = bodyFieldOf(e.path);
  return { field, rule: 'egg', detail: formatEggError({ path: field, message: e.message }) };
}

/** `egg-minecraft-java.json`: the egg's name in lower case, words joined by dashes. */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents split off by NFKD: é → e, not e-
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
  return `egg-${slug || 'export'}.json`;
}
