import { nowIso } from '../../lib/time.ts';
import type { ActivityRepository, NewActivity } from './activity.repository.ts';

export interface ActivityActor {
  userId: number | null;
  apiKeyId: number | null;
  ip: string | null;
}

/** The one way every mutation records what happened (DESIGN.md §4). */
export class ActivityService {
  constructor(private readonly repo: ActivityRepository) {}

  /**
   * Records `event` by `actor` about `subjects`. `at` is when it happened, for events reported
   * afterwards (the daemon's SFTP batches); by default now.
   */
  log(
    event: string,
    actor: ActivityActor,
    subjects: NewActivity['subjects'],
    properties: Record<string, unknown> = {},
    at: string = nowIso(),
  ): Promise<void> {
    return this.logAll([{ event, actor, subjects, properties, at }]);
  }

  /** Several events stored together: all of them, or none (a daemon's batch, reference §5.10). */
  logAll(
    entries: readonly {
      event: string;
      actor: ActivityActor;
      subjects: NewActivity['subjects'];
      properties: Record<string, unknown>;
      at: string;
    }[],
  ): Promise<void> {
    return this.repo.insertAll(
      entries.map(({ event, actor, subjects, properties, at }) => ({
        activity: {
          event,
          ip: actor.ip,
          actorId: actor.userId,
          apiKeyId: actor.apiKeyId,
          properties,
          subjects,
        },
        timestamp: at,
      })),
    );
  }
}
