import type { Location } from '../../db/types.ts';
import { errors } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ListParams } from '../application/listing.ts';
import { unique, validateBody } from '../application/validation.ts';
import type { LocationsRepository } from './locations.repository.ts';

const RULES = { short: 'required|string|between:1,60', long: 'nullable|string|between:1,191' };
const LABELS = { short: 'Location Identifier', long: 'Location Description' };

/** Locations group nodes; one with nodes cannot be deleted. */
export class LocationsService {
  constructor(
    private readonly repo: LocationsRepository,
    private readonly activity: ActivityService,
  ) {}

  list(params: ListParams) {
    return this.repo.list(params);
  }

  async get(id: number): Promise<Location> {
    const location = await this.repo.findById(id);
    if (!location) throw errors.notFound();
    return location;
  }

  private async validate(body: unknown, exceptId?: number) {
    const input = await validateBody<{ short: string; long?: string | null }>(body, RULES, LABELS, {
      short: unique((v) => this.repo.shortTaken(String(v), exceptId)),
    });
    return { short: input.short, long: input.long ?? null };
  }

  async create(body: unknown, actor: ActivityActor): Promise<Location> {
    const location = await this.repo.insert(await this.validate(body), nowIso());
    await this.activity.log('location:create', actor, [{ type: 'location', id: location.id }], {
      short: location.short,
    });
    return location;
  }

  async update(id: number, body: unknown, actor: ActivityActor): Promise<Location> {
    const location = await this.get(id);
    await this.repo.update(location.id, await this.validate(body, location.id), nowIso());
    await this.activity.log('location:update', actor, [{ type: 'location', id: location.id }]);
    return this.get(location.id);
  }

  async delete(id: number, actor: ActivityActor): Promise<void> {
    const location = await this.get(id);
    if (await this.repo.hasNodes(location.id)) {
      throw errors.display(
        'Cannot delete a location that has active nodes attached to it.',
        'HasActiveNodesException',
      );
    }
    await this.repo.delete(location.id);
    await this.activity.log('location:delete', actor, [], { id: location.id, short: location.short });
  }
}
