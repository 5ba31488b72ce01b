import { sql, type Kysely } from 'kysely';
import type { Database, Schedule, Task } from '../../db/types.ts';

export type ScheduleFields = Pick<
  Schedule,
  | 'name'
  | 'cron_minute'
  | 'cron_hour'
  | 'cron_day_of_month'
  | 'cron_month'
  | 'cron_day_of_week'
  | 'is_active'
  | 'only_when_online'
  | 'next_run_at'
>;

export type TaskFields = Pick<
  Task,
  'action' | 'payload' | 'time_offset' | 'continue_on_failure' | 'saved_by'
>;

/**
 * The `schedules` and `tasks` tables for the client API: reads, writes, and the sequence-id shifts,
 * each move done in one transaction so the positions stay a dense 1…n.
 */
export class SchedulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOfServer(serverId: number): Promise<Schedule[]> {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('server_id', '=', serverId)
      .orderBy('id')
      .execute();
  }

  find(serverId: number, id: number): Promise<Schedule | undefined> {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  byId(id: number): Promise<Schedule | undefined> {
    return this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Tasks of the given schedules, in sequence order. */
  async tasksOf(scheduleIds: number[]): Promise<Task[]> {
    if (scheduleIds.length === 0) return [];
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('schedule_id', 'in', scheduleIds)
      .orderBy('schedule_id')
      .orderBy('sequence_id')
      .execute();
  }

  findTask(scheduleId: number, id: number): Promise<Task | undefined> {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('schedule_id', '=', scheduleId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async countTasks(scheduleId: number): Promise<number> {
    const row = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('schedule_id', '=', scheduleId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insert(serverId: number, fields: ScheduleFields, at: string): Promise<Schedule> {
    return this.db
      .insertInto('schedules')
      .values({ server_id: serverId, ...fields, is_processing: 0, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Updates a schedule. When `is_active` changes, the run in progress (if any) is released and
   * `is_processing` reset (reference): its runner stops before the next task.
   */
  async update(s: Schedule, fields: ScheduleFields, at: string): Promise<Schedule> {
    const reset =
      fields.is_active !== s.is_active
        ? { is_processing: 0, claim_token: null, lease_until: null, run_position: 0, run_now: 0 }
        : {};
    return this.db
      .updateTable('schedules')
      .set({ ...fields, ...reset, updated_at: at })
      .where('id', '=', s.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('tasks').where('schedule_id', '=', id).execute();
    await this.db.deleteFrom('schedules').where('id', '=', id).execute();
  }

  /**
   * Run Now: asks the runners for a run (whichever panel's tick comes first claims it) and moves
   * `next_run_at` to the next cron time (reference).
   */
  async requestRun(id: number, nextRunAt: string | null, at: string): Promise<void> {
    await this.db
      .updateTable('schedules')
      .set({ run_now: 1, next_run_at: nextRunAt, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Adds a task. Positions: next = highest + 1; a requested `sequence` (≥ 1) lower than next shifts
   * every task at or after it up by one and takes its place (reference).
   */
  insertTask(scheduleId: number, fields: TaskFields, sequence: number | null, at: string): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const top = await trx
        .selectFrom('tasks')
        .select((eb) => eb.fn.max('sequence_id').as('max'))
        .where('schedule_id', '=', scheduleId)
        .executeTakeFirst();
      const next = Number(top?.max ?? 0) + 1;
      let position = next;
      if (sequence !== null && sequence < next) {
        position = sequence;
        await shift(trx, scheduleId, '>=', position, null, +1);
      }
      return trx
        .insertInto('tasks')
        .values({ schedule_id: scheduleId, sequence_id: position, ...fields, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /**
   * Updates a task and moves it to `sequence` (≥ 1): lower shifts [new, old) up by one, higher
   * shifts (old, new] down by one (reference).
   */
  updateTask(task: Task, fields: TaskFields, sequence: number, at: string): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const old = task.sequence_id;
      if (sequence < old) await shift(trx, task.schedule_id, '>=', sequence, ['<', old], +1);
      if (sequence > old) await shift(trx, task.schedule_id, '>', old, ['<=', sequence], -1);
      return trx
        .updateTable('tasks')
        .set({ ...fields, sequence_id: sequence, updated_at: at })
        .where('id', '=', task.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** Deletes a task; the tasks after it move down by one. */
  async deleteTask(task: Task): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tasks').where('id', '=', task.id).execute();
      await shift(trx, task.schedule_id, '>', task.sequence_id, null, -1);
    });
  }
}

async function shift(
  trx: Kysely<Database>,
  scheduleId: number,
  fromOp: '>=' | '>',
  from: number,
  to: ['<' | '<=', number] | null,
  by: 1 | -1,
): Promise<void> {
  let q = trx
    .updateTable('tasks')
    .set({ sequence_id: sql<number>`sequence_id + ${by}` })
    .where('schedule_id', '=', scheduleId)
    .where('sequence_id', fromOp, from);
  if (to) q = q.where('sequence_id', to[0], to[1]);
  await q.execute();
}
