import type { ClientSchedule, ClientScheduleTask } from '@talon/shared';
import type { Schedule, Task } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';
import { cronOf } from './schedule-cron.ts';

/**
 * The client API's `schedule_task` (reference §3.1). `is_queued`: the task is the next one of the
 * schedule's run in progress (the first one after the run's position).
 */
export function taskAttributes(t: Task, queued = false): ClientScheduleTask {
  return {
    id: t.id,
    sequence_id: t.sequence_id,
    action: t.action as ClientScheduleTask['action'],
    payload: t.payload,
    time_offset: t.time_offset,
    is_queued: queued,
    continue_on_failure: t.continue_on_failure === 1,
    created_at: atom(t.created_at) ?? '',
    updated_at: atom(t.updated_at),
  };
}

/** The client API's `server_schedule` with its tasks (always included), in sequence order. */
export function scheduleAttributes(s: Schedule, tasks: Task[]): ClientSchedule {
  const ordered = [...tasks].sort((a, b) => a.sequence_id - b.sequence_id);
  const running = s.claim_token !== null;
  const next = running ? ordered.find((t) => t.sequence_id > s.run_position) : undefined;
  return {
    id: s.id,
    name: s.name,
    cron: cronOf(s),
    is_active: s.is_active === 1,
    is_processing: s.is_processing === 1,
    only_when_online: s.only_when_online === 1,
    last_run_at: atom(s.last_run_at),
    next_run_at: atom(s.next_run_at),
    created_at: atom(s.created_at) ?? '',
    updated_at: atom(s.updated_at),
    relationships: {
      tasks: {
        object: 'list',
        data: ordered.map((t) => ({
          object: 'schedule_task' as const,
          attributes: taskAttributes(t, t === next),
        })),
      },
    },
  };
}
