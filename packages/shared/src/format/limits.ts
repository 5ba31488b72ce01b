/** Share of a limit at which a resource figure turns into an alarm (spec §9). */
export const RESOURCE_ALARM_RATIO = 0.9;

/** True at 90 % or more of a limit; a limit of 0 (or less) means unlimited and never alarms. */
export function isResourceAlarm(used: number, limit: number): boolean {
  return limit > 0 && used >= limit * RESOURCE_ALARM_RATIO;
}

/** A limit as text: `Unlimited` for 0, otherwise the formatter's output. */
export function formatLimit(limit: number, format: (value: number) => string): string {
  return limit > 0 ? format(limit) : 'Unlimited';
}
