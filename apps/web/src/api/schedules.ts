import type {
  ClientSchedule,
  ClientScheduleBody,
  ClientScheduleItem,
  ClientScheduleList,
  ClientScheduleTask,
  ClientScheduleTaskBody,
  ClientScheduleTaskItem,
  ScheduleTaskAction,
} from '@talon/shared/client/schedule-wire';
import { parseWireDate } from '../lib/dates.ts';
import { http } from './http.ts';

// Types only from the shared schemas: a zod function imported here would land in the chunk the
// sign-in page loads, which is at its size budget.

export type TaskAction = ScheduleTaskAction;

/** A task of a schedule (spec 001 §3). */
export interface Task {
  id: number;
  sequenceId: number;
  action: TaskAction;
  payload: string;
  /** Seconds after the previous task. */
  timeOffset: number;
  isQueued: boolean;
  continueOnFailure: boolean;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** The five cron fields, as the spec names them. */
export interface Cron {
  minute: string;
  hour: string;
  dayOfMonth: string;
  month: string;
  dayOfWeek: string;
}

/** A schedule (spec 001 §3); `tasks` in `sequence_id` order. */
export interface Schedule {
  id: number;
  name: string;
  cron: Cron;
  isActive: boolean;
  isProcessing: boolean;
  onlyWhenOnline: boolean;
  lastRunAt: Date | null;
  nextRunAt: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  tasks: Task[];
}

/** What the schedule modal sends (spec 001 §7). */
export interface ScheduleInput {
  name: string;
  cron: Cron;
  isActive: boolean;
  onlyWhenOnline: boolean;
}

/** What the task modal sends (spec 001 §7). */
export interface TaskInput {
  action: TaskAction;
  payload: string;
  timeOffset: number;
  continueOnFailure: boolean;
}

export function toTask(wire: ClientScheduleTask): Task {
  return {
    id: wire.id,
    sequenceId: wire.sequence_id,
    action: wire.action,
    payload: wire.payload,
    timeOffset: wire.time_offset,
    isQueued: wire.is_queued,
    continueOnFailure: wire.continue_on_failure,
    createdAt: parseWireDate(wire.created_at),
    updatedAt: parseWireDate(wire.updated_at),
  };
}

export function toSchedule(wire: ClientSchedule): Schedule {
  return {
    id: wire.id,
    name: wire.name,
    cron: {
      minute: wire.cron.minute,
      hour: wire.cron.hour,
      dayOfMonth: wire.cron.day_of_month,
      month: wire.cron.month,
      dayOfWeek: wire.cron.day_of_week,
    },
    isActive: wire.is_active,
    isProcessing: wire.is_processing,
    onlyWhenOnline: wire.only_when_online,
    lastRunAt: parseWireDate(wire.last_run_at),
    nextRunAt: parseWireDate(wire.next_run_at),
    createdAt: parseWireDate(wire.created_at),
    updatedAt: parseWireDate(wire.updated_at),
    tasks: wire.relationships.tasks.data
      .map(({ attributes }) => toTask(attributes))
      .sort((a, b) => a.sequenceId - b.sequenceId),
  };
}

function toScheduleBody(input: ScheduleInput): ClientScheduleBody {
  return {
    name: input.name,
    is_active: input.isActive,
    only_when_online: input.onlyWhenOnline,
    minute: input.cron.minute,
    hour: input.cron.hour,
    day_of_month: input.cron.dayOfMonth,
    month: input.cron.month,
    day_of_week: input.cron.dayOfWeek,
  };
}

function toTaskBody(input: TaskInput): ClientScheduleTaskBody {
  return {
    action: input.action,
    payload: input.payload,
    time_offset: input.timeOffset,
    continue_on_failure: input.continueOnFailure,
  };
}

const base = (serverId: string) => `/api/client/servers/${serverId}/schedules`;
/** Tasks are always asked for (spec 001 §7). */
const WITH_TASKS = { include: 'tasks' } as const;

/** GET .../schedules?include=tasks. */
export async function getSchedules(serverId: string): Promise<Schedule[]> {
  const { data } = await http.get<ClientScheduleList>(base(serverId), { params: WITH_TASKS });
  return data.data.map(({ attributes }) => toSchedule(attributes));
}

/** GET .../schedules/{id}?include=tasks. */
export async function getSchedule(serverId: string, id: number): Promise<Schedule> {
  const { data } = await http.get<ClientScheduleItem>(`${base(serverId)}/${id}`, { params: WITH_TASKS });
  return toSchedule(data.attributes);
}

/** POST .../schedules (create) or .../schedules/{id} (update). */
export async function saveSchedule(serverId: string, input: ScheduleInput, id?: number): Promise<Schedule> {
  const url = id === undefined ? base(serverId) : `${base(serverId)}/${id}`;
  const { data } = await http.post<ClientScheduleItem>(url, toScheduleBody(input));
  return toSchedule(data.attributes);
}

/** DELETE .../schedules/{id}. */
export async function deleteSchedule(serverId: string, id: number): Promise<void> {
  await http.delete(`${base(serverId)}/${id}`);
}

/** POST .../schedules/{id}/execute (Run Now): 202, nothing to read. */
export async function runSchedule(serverId: string, id: number): Promise<void> {
  await http.post(`${base(serverId)}/${id}/execute`);
}

/** POST .../schedules/{id}/tasks (create) or .../tasks/{taskId} (update). */
export async function saveTask(
  serverId: string,
  scheduleId: number,
  input: TaskInput,
  taskId?: number,
): Promise<Task> {
  const tasks = `${base(serverId)}/${scheduleId}/tasks`;
  const url = taskId === undefined ? tasks : `${tasks}/${taskId}`;
  const { data } = await http.post<ClientScheduleTaskItem>(url, toTaskBody(input));
  return toTask(data.attributes);
}

/** DELETE .../schedules/{id}/tasks/{taskId}. */
export async function deleteTask(serverId: string, scheduleId: number, taskId: number): Promise<void> {
  await http.delete(`${base(serverId)}/${scheduleId}/tasks/${taskId}`);
}
