import { HttpError } from './errors.ts';

type Query = Record<string, unknown>;

/** `include=a,b` and `include[]=a&include[]=b` both work (the web app sends the latter). */
export function includes(query: Query): Set<string> {
  const raw = [query.include, query['include[]']].flat().filter((v): v is string => typeof v === 'string');
  return new Set(
    raw
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean),
  );
}

/**
 * `filter[name]=value` pairs, checked against the endpoint's allow-list. A value with commas is
 * several alternatives (OR-ed).
 */
export function filters(query: Query, allowed: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    const m = /^filter\[([^\]]+)\]$/u.exec(key);
    if (!m?.[1] || value === null || value === undefined) continue;
    if (!allowed.includes(m[1])) {
      unknown.push(m[1]);
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '';
    out[m[1]] = text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  }
  if (unknown.length > 0) {
    throw new HttpError(
      400,
      'InvalidFilterQuery',
      `Requested filter(s) \`${unknown.join(', ')}\` are not allowed. Allowed filter(s) are \`${allowed.join(', ')}\`.`,
    );
  }
  return out;
}

/** `sort=field` / `sort=-field`, checked against the endpoint's allow-list. */
export function sorts(query: Query, allowed: readonly string[]): { field: string; descending: boolean }[] {
  if (typeof query.sort !== 'string' || query.sort === '') return [];
  const parts = query.sort
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.filter((p) => !allowed.includes(p.replace(/^-/u, '')));
  if (bad.length > 0) {
    throw new HttpError(
      400,
      'InvalidSortQuery',
      `Requested sort(s) \`${bad.join(', ')}\` is not allowed. Allowed sort(s) are \`${allowed.join(', ')}\`.`,
    );
  }
  return parts.map((p) => ({ field: p.replace(/^-/u, ''), descending: p.startsWith('-') }));
}
