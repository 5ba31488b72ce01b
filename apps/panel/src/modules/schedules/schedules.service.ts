import { can, type ScheduleCron } from '@talon/shared';
import type { Schedule, Server, Task } from '../../db/types.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import { cronOf, nextRunAt } from './schedule-cron.ts';
import type { SchedulesRepository, TaskFields } from './schedules.repository.ts';
import { taskPermission } from './task-permissions.ts';

export interface ScheduleInput {
  name: string;
  is_active: boolean;
  only_when_online: boolean;
  cron: ScheduleCron;
}

export interface TaskInput extends Omit<TaskFields, 'saved_by'> {
  /** the requested position, null when not given */
  sequence: number | null;
}

const INVALID_CRON = 'The cron data provided does not evaluate to a valid expression.';

/**
 * The client API's schedule rules (reference §3.3 "Schedules and tasks"): cron validation and
 * `next_run_at` in APP_TIMEZONE, the task limit, the backup-task refusal, the positions, the
 * activity events. Running is the runner's (jobs/schedule-runner.ts); Run Now only asks for it.
 */
export class SchedulesService {
  /** called after a Run Now request so this panel's runner claims it at once */
  private readonly runRequested = new Set<() => void>();

  constructor(
    private readonly repo: SchedulesRepository,
    private readonly activity: ActivityService,
    private readonly config: { timezone: string; taskLimit: number },
  ) {}

  onRunRequested(listener: () => void): () => void {
    this.runRequested.add(listener);
    return () => this.runRequested.delete(listener);
  }

  /** The next cron time after `after`, as stored; null when the schedule's fields never match. */
  nextRun(cron: ScheduleCron, after = new Date()): string | null {
    return nextRunAt(cron, this.config.timezone, after)?.toISOString() ?? null;
  }

  async create(server: Server, input: ScheduleInput, actor: ActivityActor): Promise<Schedule> {
    const next = this.validNextRun(input.cron);
    const schedule = await this.repo.insert(server.id, fieldsOf(input, next), nowIso());
    await this.log('server:schedule.create', actor, server, schedule, { name: schedule.name });
    return schedule;
  }

  async update(server: Server, schedule: Schedule, input: ScheduleInput, actor: ActivityActor) {
    const next = this.validNextRun(input.cron);
    const updated = await this.repo.update(schedule, fieldsOf(input, next), nowIso());
    await this.log('server:schedule.update', actor, server, updated, {
      name: updated.name,
      active: updated.is_active === 1,
    });
    return updated;
  }

  async delete(server: Server, schedule: Schedule, actor: ActivityActor): Promise<void> {
    await this.repo.delete(schedule.id);
    await this.log('server:schedule.delete', actor, server, schedule, { name: schedule.name });
  }

  /**
   * Run Now, regardless of `is_active`: refused without tasks; otherwise the run is requested (a
   * runner claims it within its tick, this panel's at once) and `next_run_at` moves to the next
   * cron time. A run already in progress finishes first; the requested one follows it.
   */
  async execute(server: Server, schedule: Schedule, actor: ActivityActor): Promise<void> {
    if ((await this.repo.countTasks(schedule.id)) === 0) {
      throw errors.display('Cannot process schedule for task execution: no tasks are registered.');
    }
    const next = this.nextRun(cronOf(schedule));
    await this.repo.requestRun(schedule.id, next, nowIso());
    await this.log('server:schedule.execute', actor, server, schedule, { name: schedule.name });
    for (const listener of this.runRequested) listener();
  }

  /**
   * A task is saved only by a user who may do its action themselves (CVE-2026-86177: 403
   * otherwise); they are recorded as its saver, whose permissions the runner checks again.
   */
  async createTask(
    access: PermittedServerAccess,
    schedule: Schedule,
    input: TaskInput,
    actor: ActivityActor,
  ): Promise<Task> {
    const { server } = access;
    const limit = this.config.taskLimit;
    if ((await this.repo.countTasks(schedule.id)) >= limit) {
      throw errors.badRequest(
        `Schedules may not have more than ${limit} tasks associated with them. Creating this task would put this schedule over the limit.`,
        'ServiceLimitExceededException',
      );
    }
    checkBackupTask(server, input.action);
    checkTaskPermission(access, input);
    const task = await this.repo.insertTask(
      schedule.id,
      fieldsOfTask(input, access),
      input.sequence,
      nowIso(),
    );
    await this.logTask('server:task.create', actor, server, schedule, task);
    return task;
  }

  async updateTask(
    access: PermittedServerAccess,
    schedule: Schedule,
    task: Task,
    input: TaskInput,
    actor: ActivityActor,
  ) {
    const { server } = access;
    checkBackupTask(server, input.action);
    checkTaskPermission(access, input);
    const count = await this.repo.countTasks(schedule.id);
    // Positions stay within 1…n: a task moved past the end goes last.
    const sequence = Math.min(input.sequence ?? task.sequence_id, count);
    const updated = await this.repo.updateTask(task, fieldsOfTask(input, access), sequence, nowIso());
    await this.logTask('server:task.update', actor, server, schedule, updated);
    return updated;
  }

  async deleteTask(server: Server, schedule: Schedule, task: Task, actor: ActivityActor): Promise<void> {
    await this.repo.deleteTask(task);
    await this.logTask('server:task.delete', actor, server, schedule, task);
  }

  private validNextRun(cron: ScheduleCron): string {
    const next = this.nextRun(cron);
    if (next === null) throw errors.display(INVALID_CRON);
    return next;
  }

  private log(
    event: string,
    actor: ActivityActor,
    server: Server,
    s: Schedule,
    props: Record<string, unknown>,
  ) {
    return this.activity.log(
      event,
      actor,
      [
        { type: 'server', id: server.id },
        { type: 'schedule', id: s.id },
      ],
      props,
    );
  }

  private logTask(event: string, actor: ActivityActor, server: Server, s: Schedule, t: Task) {
    return this.log(event, actor, server, s, { name: s.name, action: t.action, payload: t.payload });
  }
}

function fieldsOf(input: ScheduleInput, next: string) {
  return {
    name: input.name,
    cron_minute: input.cron.minute,
    cron_hour: input.cron.hour,
    cron_day_of_month: input.cron.day_of_month,
    cron_month: input.cron.month,
    cron_day_of_week: input.cron.day_of_week,
    is_active: input.is_active ? 1 : 0,
    only_when_online: input.only_when_online ? 1 : 0,
    next_run_at: next,
  };
}

function fieldsOfTask(input: TaskInput, access: PermittedServerAccess): TaskFields {
  return {
    action: input.action,
    payload: input.payload,
    time_offset: input.time_offset,
    continue_on_failure: input.continue_on_failure,
    saved_by: access.user.id,
  };
}

/** The saver must hold the permission of the task's action (CVE-2026-86177). */
function checkTaskPermission(access: PermittedServerAccess, input: TaskInput): void {
  if (!can(access.permissions, taskPermission(input.action, input.payload))) throw errors.forbidden();
}

/** A backup task on a server whose backup limit is exactly 0 is refused (reference). */
function checkBackupTask(server: Server, action: string): void {
  if (action === 'backup' && server.backup_limit === 0) {
    throw new HttpError(
      403,
      'HttpForbiddenException',
      "A backup task cannot be created when the server's backup limit is set to 0.",
    );
  }
}
