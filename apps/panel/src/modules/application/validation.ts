import { validate, type RuleFailure, type RuleSet } from '@talon/shared';
import { ValidationFailed } from '../../http/errors.ts';

/** A rule that needs the database: `fails` resolves true when the value breaks it. */
export interface DbRule {
  rule: 'unique' | 'exists';
  fails: (value: unknown) => Promise<boolean>;
}

/** The value is already used by another row. */
export const unique = (taken: (value: unknown) => Promise<boolean>): DbRule => ({
  rule: 'unique',
  fails: taken,
});

/** The value must name an existing row. */
export const exists = (found: (value: unknown) => Promise<boolean>): DbRule => ({
  rule: 'exists',
  fails: async (v) => !(await found(v)),
});

const DB_MESSAGES = {
  unique: 'The :attribute has already been taken.',
  exists: 'The selected :attribute is invalid.',
};

/**
 * Validates a body like `check`, plus the rules that need the database. Like Laravel, every failure
 * arrives in one 422, ordered by the declared fields; a field that already failed a format rule
 * is not looked up.
 */
export async function validateBody<T>(
  body: unknown,
  rules: RuleSet,
  labels: Record<string, string>,
  dbRules: Record<string, DbRule> = {},
): Promise<T> {
  const data = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const failures: RuleFailure[] = validate(data, rules, labels);
  for (const [field, { rule, fails }] of Object.entries(dbRules)) {
    const value = data[field];
    if (value === undefined || value === null || failures.some((f) => f.field === field)) continue;
    if (await fails(value)) {
      const label = labels[field] ?? field.replace(/_/gu, ' ');
      failures.push({ field, rule, detail: DB_MESSAGES[rule].replace(':attribute', label) });
    }
  }
  if (failures.length > 0) {
    const order = Object.keys(rules);
    const rank = (f: RuleFailure) => {
      const i = order.findIndex((p) => p === f.field || f.field.startsWith(`${p.split('.*')[0]}.`));
      return i === -1 ? order.length : i;
    };
    throw new ValidationFailed([...failures].sort((a, b) => rank(a) - rank(b)));
  }
  return data as T;
}

/** Converts a validated `boolean` field (true/false/1/0/"1"/"0") to 0 or 1. */
export function flag(value: unknown): number {
  return value === true || value === 1 || value === '1' ? 1 : 0;
}
