import { z } from 'zod';

/**
 * Wire shapes of the client API's schedules (reference §3.1 `server_schedule`, `schedule_task`,
 * §3.3 "Schedules and tasks"). The panel builds the answers; the web app and tests parse them.
 */

/** Task actions a schedule can run. */
export const SCHEDULE_TASK_ACTIONS = ['command', 'power', 'backup'] as const;
export const scheduleTaskActionSchema = z.enum(SCHEDULE_TASK_ACTIONS);
export type ScheduleTaskAction = z.infer<typeof scheduleTaskActionSchema>;

/** Power signals a `power` task's payload names. */
export const SCHEDULE_POWER_PAYLOADS = ['start', 'stop', 'restart', 'kill'] as const;

/** Seconds a task may wait after the previous one. */
export const SCHEDULE_TASK_OFFSET_MAX = 900;
/** The longest schedule name the API accepts. */
export const SCHEDULE_NAME_MAX = 191;
/** Default of `PTERODACTYL_PER_SCHEDULE_TASK_LIMIT`. */
export const SCHEDULE_TASK_LIMIT_DEFAULT = 10;

/** The five cron fields, each a string in standard five-field syntax. */
export const scheduleCronSchema = z.object({
  day_of_week: z.string(),
  day_of_month: z.string(),
  month: z.string(),
  hour: z.string(),
  minute: z.string(),
});
export type ScheduleCron = z.infer<typeof scheduleCronSchema>;

/** A `schedule_task` object. */
export const clientScheduleTaskSchema = z.object({
  id: z.number().int(),
  sequence_id: z.number().int(),
  action: scheduleTaskActionSchema,
  /** Command text; a power signal; for backup the newline-separated ignored paths (may be empty). */
  payload: z.string(),
  /** Seconds to wait after the previous task. */
  time_offset: z.number().int(),
  /** True while the task is the next one of a running chain. */
  is_queued: z.boolean(),
  continue_on_failure: z.boolean(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type ClientScheduleTask = z.infer<typeof clientScheduleTaskSchema>;

export const clientScheduleTaskItemSchema = z.object({
  object: z.literal('schedule_task'),
  attributes: clientScheduleTaskSchema,
});
/** Answer of `POST …/schedules/{schedule}/tasks` and `POST …/tasks/{task}`. */
export type ClientScheduleTaskItem = z.infer<typeof clientScheduleTaskItemSchema>;

/** A `server_schedule` object; `relationships.tasks` is always present, in `sequence_id` order. */
export const clientScheduleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  cron: scheduleCronSchema,
  is_active: z.boolean(),
  is_processing: z.boolean(),
  only_when_online: z.boolean(),
  /** ISO 8601 with offset, or null. */
  last_run_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  relationships: z.object({
    tasks: z.object({
      object: z.literal('list'),
      data: z.array(clientScheduleTaskItemSchema),
    }),
  }),
});
export type ClientSchedule = z.infer<typeof clientScheduleSchema>;

export const clientScheduleItemSchema = z.object({
  object: z.literal('server_schedule'),
  attributes: clientScheduleSchema,
});
/** Answer of `GET …/schedules/{schedule}`, `POST …/schedules` and `POST …/schedules/{schedule}`. */
export type ClientScheduleItem = z.infer<typeof clientScheduleItemSchema>;

/** Answer of `GET …/schedules`. */
export const clientScheduleListSchema = z.object({
  object: z.literal('list'),
  data: z.array(clientScheduleItemSchema),
});
export type ClientScheduleList = z.infer<typeof clientScheduleListSchema>;

/**
 * Body of `POST …/schedules` and `POST …/schedules/{schedule}`. Talon stores a missing `is_active`
 * as active and a missing `month` as `*` (the reference stores inactive / fails with a 500). The
 * panel checks the body with the reference's messages; this schema describes what clients send.
 */
export const clientScheduleBodySchema = z.object({
  name: z.string().max(SCHEDULE_NAME_MAX),
  is_active: z.boolean().optional(),
  only_when_online: z.boolean().optional(),
  minute: z.string(),
  hour: z.string(),
  day_of_month: z.string(),
  month: z.string().optional(),
  day_of_week: z.string(),
});
export type ClientScheduleBody = z.infer<typeof clientScheduleBodySchema>;

/** Body of `POST …/schedules/{schedule}/tasks` and `POST …/tasks/{task}`. */
export const clientScheduleTaskBodySchema = z.object({
  action: scheduleTaskActionSchema,
  /** Required unless `action` is `backup`; null is stored as "". */
  payload: z.string().nullable().optional(),
  time_offset: z.number().int().min(0).max(SCHEDULE_TASK_OFFSET_MAX),
  /** Position (≥ 1); absent → appended (create) or unchanged (update). */
  sequence_id: z.number().int().min(1).optional(),
  continue_on_failure: z.boolean().optional(),
});
export type ClientScheduleTaskBody = z.infer<typeof clientScheduleTaskBodySchema>;

/** The five cron fields joined in cron order: `minute hour day_of_month month day_of_week`. */
export function scheduleCronExpression(cron: ScheduleCron): string {
  return [cron.minute, cron.hour, cron.day_of_month, cron.month, cron.day_of_week].join(' ');
}
