import { randomUUID } from 'node:crypto';
import type { Nest } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import { validateBody } from '../application/validation.ts';
import type { EggsRepository } from './eggs.repository.ts';

const RULES = { name: 'required|string|between:1,191', description: 'nullable|string' };

/** Author of nests made in the panel (the reference fills in its configured service author). */
export const PANEL_NEST_AUTHOR = 'support@talon.invalid';

/** Nests group eggs; the application API creates, renames and deletes empty ones (an extension). */
export class NestsService {
  constructor(
    private readonly repo: EggsRepository,
    private readonly activity: ActivityService,
  ) {}

  list(params: ListParams) {
    return this.repo.pageNests(params);
  }

  async get(id: number): Promise<Nest> {
    const nest = await this.repo.findNest(id);
    if (!nest) throw errors.notFound();
    return nest;
  }

  private async validate(body: unknown) {
    const input = await validateBody<{ name: string; description?: string | null }>(body, RULES, {});
    return { name: input.name, description: input.description ?? null };
  }

  async create(body: unknown, actor: ActivityActor): Promise<Nest> {
    const input = await this.validate(body);
    const at = nowIso();
    const nest = await this.repo.insertNest({
      uuid: randomUUID(),
      author: PANEL_NEST_AUTHOR,
      ...input,
      created_at: at,
      updated_at: at,
    });
    await this.activity.log('nest:create', actor, [{ type: 'nest', id: nest.id }], { name: nest.name });
    return nest;
  }

  async update(id: number, body: unknown, actor: ActivityActor): Promise<Nest> {
    const nest = await this.get(id);
    const input = await this.validate(body);
    await this.repo.updateNest(nest.id, { ...input, updated_at: nowIso() });
    await this.activity.log('nest:update', actor, [{ type: 'nest', id: nest.id }], { name: input.name });
    return this.get(nest.id);
  }

  async delete(id: number, actor: ActivityActor): Promise<void> {
    const nest = await this.get(id);
    if (await this.repo.nestHasEggs(nest.id))
      throw errors.display('Cannot delete a nest that still has eggs.');
    await this.repo.deleteNest(nest.id);
    await this.activity.log('nest:delete', actor, [], { id: nest.id, name: nest.name });
  }
}
