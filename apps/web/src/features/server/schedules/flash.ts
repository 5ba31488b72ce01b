/** Flash keys of the Schedules screens (spec 001 §8): the list and detail, the schedule modal, the task modal. */
export const SCHEDULES_FLASH = 'schedules';
export const SCHEDULE_EDIT_FLASH = 'schedule:edit';
export const SCHEDULE_TASK_FLASH = 'schedule:task';
