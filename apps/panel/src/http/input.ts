import { validate, type RuleSet } from '@talon/shared';
import { ValidationFailed } from './errors.ts';

const UNTRIMMED = new Set(['password', 'password_confirmation', 'current_password']);

/**
 * The global input rule of the original: strings are trimmed (except password fields) and empty
 * strings become null, recursively. Applied to query strings and JSON bodies.
 */
export function normalizeInput(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    const v = UNTRIMMED.has(key) ? value : value.trim();
    return v === '' ? null : v;
  }
  if (Array.isArray(value)) return value.map((v) => normalizeInput(v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeInput(v, k)]));
  }
  return value;
}

/** Validates a body against Laravel-style rules; throws the 422 with every failure. */
export function check<T = Record<string, unknown>>(
  body: unknown,
  rules: RuleSet,
  attributes?: Record<string, string>,
): T {
  const data = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const failures = validate(data, rules, attributes);
  if (failures.length > 0) throw new ValidationFailed(failures);
  return data as T;
}
