import { formatPath, parseEgg, type EggVariable as ParsedVariable } from '@talon/shared';
import type { Egg, EggVariable } from '../../db/types.ts';
import { errors, ValidationFailed } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { unique, validateBody } from '../application/validation.ts';
import type { EggsRepository } from './eggs.repository.ts';

/** Presence and types; the egg format's own rules (names, reserved names, rule strings) come after. */
const SHAPE = {
  name: 'required|string',
  description: 'nullable|string',
  env_variable: 'required|string',
  default_value: 'nullable',
  user_viewable: 'boolean',
  user_editable: 'boolean',
  rules: 'nullable',
};
const LABELS = { env_variable: 'Environment Variable' };
const FIELDS = Object.keys(SHAPE);

/** The smallest valid egg file: the candidate variable is checked inside it by the importer. */
function fileWith(variable: Record<string, unknown>) {
  return {
    meta: { version: 'PTDL_v2' },
    name: 'check',
    author: 'check@talon.invalid',
    docker_images: { Main: 'example/check' },
    startup: 'run',
    config: { files: '{}', startup: '{"done": "ready"}', logs: '{}', stop: 'stop' },
    scripts: { installation: { script: '', container: 'example/check', entrypoint: 'bash' } },
    variables: [variable],
  };
}

/** A variable as an egg file writes it, from a stored row (the base of a partial update). */
function asFileVariable(v: EggVariable): Record<string, unknown> {
  return {
    name: v.name,
    description: v.description,
    env_variable: v.env_variable,
    default_value: v.default_value,
    user_viewable: v.user_viewable === 1,
    user_editable: v.user_editable === 1,
    rules: v.rules,
  };
}

/** An egg's variables through the application API (extension): the import's rules, one row kept per variable. */
export class EggVariablesService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly activity: ActivityService,
  ) {}

  list(egg: Egg): Promise<EggVariable[]> {
    return this.repo.variables(egg.id);
  }

  async get(egg: Egg, id: number): Promise<EggVariable> {
    const variable = await this.repo.findVariable(egg.id, id);
    if (!variable) throw errors.notFound();
    return variable;
  }

  /**
   * Checks a whole variable: presence and types first (Laravel messages), then the egg importer's
   * rules, reported on the request's field (`rules: "intger" is not a known validation rule`).
   * Environment names are unique in an egg regardless of case (the daemon upper-cases them).
   */
  private async check(
    egg: Egg,
    candidate: Record<string, unknown>,
    exceptId?: number,
  ): Promise<ParsedVariable> {
    const others = (await this.repo.variables(egg.id)).filter((v) => v.id !== exceptId);
    await validateBody(candidate, SHAPE, LABELS, {
      env_variable: unique(async (value) =>
        others.some((v) => v.env_variable.toUpperCase() === String(value).toUpperCase()),
      ),
    });
    const parsed = parseEgg(fileWith(candidate));
    if (parsed.ok) return parsed.egg.variables[0] as ParsedVariable;
    const prefix = formatPath(['variables', 0]);
    throw new ValidationFailed(
      parsed.errors.map((e) => {
        const field = e.path.startsWith(`${prefix}.`) ? e.path.slice(prefix.length + 1) : e.path;
        return { field, rule: 'egg', detail: `${field}: ${e.message}` };
      }),
    );
  }

  private columns(v: ParsedVariable) {
    return {
      name: v.name,
      description: v.description,
      env_variable: v.envVariable,
      default_value: v.defaultValue,
      user_viewable: v.userViewable ? 1 : 0,
      user_editable: v.userEditable ? 1 : 0,
      rules: v.rules,
    };
  }

  async create(egg: Egg, body: unknown, actor: ActivityActor): Promise<EggVariable> {
    const given = pick(body);
    const candidate = {
      description: '',
      default_value: '',
      user_viewable: false,
      user_editable: false,
      rules: 'nullable|string',
      ...given,
    };
    const parsed = await this.check(egg, candidate);
    const at = nowIso();
    const variable = await this.repo.insertVariable({
      egg_id: egg.id,
      ...this.columns(parsed),
      sort: null,
      created_at: at,
      updated_at: at,
    });
    await this.activity.log('egg:variable.create', actor, [{ type: 'egg', id: egg.id }], {
      env_variable: variable.env_variable,
    });
    return variable;
  }

  /** Partial: the fields given replace the stored ones; the row (and servers' values) stay. */
  async update(egg: Egg, id: number, body: unknown, actor: ActivityActor): Promise<EggVariable> {
    const variable = await this.get(egg, id);
    const parsed = await this.check(egg, { ...asFileVariable(variable), ...pick(body) }, variable.id);
    await this.repo.updateVariable(variable.id, { ...this.columns(parsed), updated_at: nowIso() });
    await this.activity.log('egg:variable.update', actor, [{ type: 'egg', id: egg.id }], {
      env_variable: parsed.envVariable,
    });
    return this.get(egg, variable.id);
  }

  /** Deletes the variable and every server's value of it. */
  async delete(egg: Egg, id: number, actor: ActivityActor): Promise<void> {
    const variable = await this.get(egg, id);
    await this.repo.deleteVariable(variable.id);
    await this.activity.log('egg:variable.delete', actor, [{ type: 'egg', id: egg.id }], {
      env_variable: variable.env_variable,
    });
  }
}

/** The known fields of a request body (others are ignored, as in the reference). */
function pick(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter(([k]) => FIELDS.includes(k)));
}
