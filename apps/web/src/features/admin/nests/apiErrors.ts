import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';

/** One problem of a 422: the field (or the path in an egg file) and what is wrong there. */
export interface FieldProblem {
  field: string;
  detail: string;
}

/** The per-field problems of a 422 answer (reference format), in the order the API gave them. */
export function validationProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof HttpError) || error.status !== 422) return [];
  const errors =
    (error.data as { errors?: { detail?: string; meta?: { source_field?: string } }[] } | null)?.errors ?? [];
  return errors
    .filter((e) => typeof e.detail === 'string')
    .map((e) => ({ field: e.meta?.source_field ?? '', detail: e.detail! }));
}

/** Is `source` the field `name` or a part of it (`config.files["x"].parser` is in `config.files`)? */
function within(source: string, name: string): boolean {
  return source === name || source.startsWith(`${name}.`) || source.startsWith(`${name}[`);
}

/**
 * Sorts an error onto a form's fields: each 422 problem goes to the form field that holds its
 * `source_field` (the longest match); what fits no field, and any other error, is in `other`, in words.
 */
export function problemsByField(
  error: unknown,
  fields: readonly string[],
): { byField: Record<string, string>; other: string[] } {
  const problems = validationProblems(error);
  if (problems.length === 0) return { byField: {}, other: error ? [httpErrorToHuman(error)] : [] };
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const problem of problems) {
    const field = fields.filter((name) => within(problem.field, name)).sort((a, b) => b.length - a.length)[0];
    if (field) byField[field] = byField[field] ? `${byField[field]} ${problem.detail}` : problem.detail;
    else other.push(problem.detail);
  }
  return { byField, other };
}

/** `variables[2].rules: "intger" is not …` → the reason without the path the screen shows apart. */
export function reasonOf(problem: FieldProblem): string {
  const prefix = `${problem.field}: `;
  return problem.field && problem.detail.startsWith(prefix)
    ? problem.detail.slice(prefix.length)
    : problem.detail;
}
