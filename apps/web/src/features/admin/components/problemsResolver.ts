import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/** A form's problems by field name; a field without one is fine. */
export type FormProblems<V> = Partial<Record<keyof V & string, string>>;

/**
 * A react-hook-form resolver over a plain function that lists the form's problems. The admin
 * forms write their rules out instead of as zod schemas: every zod feature the admin chunk uses is
 * downloaded by the sign-in page too (they share zod's core), whose budget is full.
 */
export function problemsResolver<V extends FieldValues>(
  problems: (values: V) => FormProblems<V>,
): Resolver<V> {
  return (values) => {
    const found = Object.entries(problems(values)).filter(([, message]) => message);
    if (found.length === 0) return { values, errors: {} };
    const errors = Object.fromEntries(
      found.map(([field, message]) => [field, { type: 'validate', message }]),
    ) as FieldErrors<V>;
    return { values: {}, errors };
  };
}
