/** The kind of input a startup variable gets, read from its validation rules. */
export type VariableInputKind =
  { kind: 'select'; options: string[] } | { kind: 'boolean' } | { kind: 'text'; numeric: boolean };

/**
 * `in:a,b,c` → a select of those values (split on commas, as the panel checks them); `boolean` →
 * an on/off switch; anything else → text (a numeric keyboard on phones for numeric rules).
 */
export function variableInputKind(rules: readonly string[]): VariableInputKind {
  const choice = rules.find((rule) => rule.startsWith('in:'));
  if (choice !== undefined) return { kind: 'select', options: [...new Set(choice.slice(3).split(','))] };
  if (rules.includes('boolean')) return { kind: 'boolean' };
  return { kind: 'text', numeric: rules.some((rule) => rule === 'integer' || rule === 'numeric') };
}

/** The values an on/off variable is stored as: the panel's boolean rule accepts 1 and 0, not words. */
export const BOOLEAN_ON = '1';
export const BOOLEAN_OFF = '0';

/** Whether a stored value reads as "on" (an egg may have been written with true/false). */
export function isOn(value: string): boolean {
  return ['1', 'true', 'on', 'yes'].includes(value.trim().toLowerCase());
}
