import type { Task, TaskAction } from '../../../api/schedules.ts';

/** Seconds a task may wait (shared SCHEDULE_TASK_OFFSET_MAX; not imported: that module brings zod). */
export const TIME_OFFSET_MAX = 900;

/** The task modal's messages (spec 001 §5 "Task"), word for word. */
export const TASK_MESSAGES = {
  payload: 'A task payload must be provided.',
  offsetRequired: 'A time offset value must be provided.',
  offsetMin: 'The time offset must be at least 0 seconds.',
  offsetMax: 'The time offset must be less than 900 seconds.',
  offsetType: 'The time offset must be a valid number between 0 and 900.',
  backupLimit: "A backup task cannot be created when the server's backup limit is set to 0.",
} as const;

export interface TaskFields {
  action: TaskAction;
  payload: string;
  /** As typed: checked and turned into a number on submit. */
  timeOffset: string;
  continueOnFailure: boolean;
}

/** A new task: a command sent at once (spec 001 §5 defaults). */
export const NEW_TASK: TaskFields = {
  action: 'command',
  payload: '',
  timeOffset: '0',
  continueOnFailure: false,
};

export function taskFields(task: Task | undefined): TaskFields {
  if (!task) return NEW_TASK;
  return {
    action: task.action,
    payload: task.payload,
    timeOffset: String(task.timeOffset),
    continueOnFailure: task.continueOnFailure,
  };
}

/** The payload an action starts with when chosen (spec 001 §5): `start` for power, empty otherwise. */
export const payloadFor = (action: TaskAction) => (action === 'power' ? 'start' : '');

/** The payload's message, or null: required unless the action is backup. */
export function payloadError(action: TaskAction, payload: string): string | null {
  if (action === 'backup') return null;
  return payload.trim() === '' ? TASK_MESSAGES.payload : null;
}

/** The time offset's message, or null. Whole seconds only, as the panel stores them. */
export function timeOffsetError(value: string): string | null {
  const text = value.trim();
  if (text === '') return TASK_MESSAGES.offsetRequired;
  if (!/^-?\d+$/.test(text)) return TASK_MESSAGES.offsetType;
  const seconds = Number(text);
  if (seconds < 0) return TASK_MESSAGES.offsetMin;
  if (seconds > TIME_OFFSET_MAX) return TASK_MESSAGES.offsetMax;
  return null;
}

/** The backup-limit refusal (spec 001 §5), or null: a backup task needs a backup limit other than 0. */
export function backupLimitError(action: TaskAction, backupLimit: number | null): string | null {
  return action === 'backup' && backupLimit === 0 ? TASK_MESSAGES.backupLimit : null;
}
