import type { FieldErrors, FieldValues, Path, Resolver } from 'react-hook-form';

/**
 * A form's problems by field name; a field without one is fine. Nested fields go by their dotted
 * path (`limits.memory`, `environment.SERVER_PORT`).
 */
export type FormProblems<V extends FieldValues> = Partial<Record<Path<V>, string>>;

/**
 * A react-hook-form resolver over a plain function that lists the form's problems. The admin
 * forms write their rules out instead of as zod schemas: every zod feature the admin chunk uses is
 * downloaded by the sign-in page too (they share zod's core), whose budget is full.
 *
 * `tidy` (optional) turns the typed values into the ones checked and handed to the submit handler,
 * e.g. with text boxes trimmed.
 */
export function problemsResolver<V extends FieldValues>(
  problems: (values: V) => FormProblems<V>,
  tidy: (values: V) => V = (values) => values,
): Resolver<V> {
  return (typed) => {
    const values = tidy(typed);
    const found = Object.entries(problems(values) as Record<string, string | undefined>).filter(
      ([, message]) => message,
    );
    if (found.length === 0) return { values, errors: {} };
    // react-hook-form reads errors as nested objects: `limits.memory` → { limits: { memory } }.
    const errors: Record<string, unknown> = {};
    for (const [path, message] of found) {
      const parts = path.split('.');
      let node = errors;
      for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[parts.at(-1)!] = { type: 'validate', message };
    }
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}
