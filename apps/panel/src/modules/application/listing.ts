import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/types.ts';
import { pageRequest, type PageRequest } from '../../http/envelope.ts';
import { filters as parseFilters, sorts as parseSorts } from '../../http/query.ts';

/** How a list endpoint filters and sorts: wire name → column (reference §1.5). */
export interface ListSpec {
  /** `integer`: an exact filter on a number column; a value that is not an integer matches nothing. */
  filters: Record<string, { column: string; exact?: boolean; integer?: boolean }>;
  sorts: Record<string, string>;
}

export interface ListParams {
  page: PageRequest;
  filters: { column: string; exact: boolean; integer: boolean; values: string[] }[];
  sorts: { column: string; descending: boolean }[];
}

/** Application lists default to 50 per page with no cap (reference §1.3). */
export function listParams(query: Record<string, unknown>, spec: ListSpec): ListParams {
  const requested = parseFilters(query, Object.keys(spec.filters));
  const sorts = Object.keys(spec.sorts).length > 0 ? parseSorts(query, Object.keys(spec.sorts)) : [];
  return {
    page: pageRequest(query, { perPage: 50 }),
    filters: Object.entries(requested)
      .filter(([, values]) => values.length > 0)
      .map(([name, values]) => {
        const f = spec.filters[name] ?? { column: name };
        return { column: f.column, exact: f.exact ?? false, integer: f.integer ?? false, values };
      }),
    sorts: sorts.map((s) => ({ column: spec.sorts[s.field] ?? s.field, descending: s.descending })),
  };
}

/** `%`, `_` and `\` in a partial filter value match themselves. */
export function likePattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

/**
 * Adds the WHERE clauses of the requested filters: partial ones are case-insensitive substring
 * matches on both databases, exact ones `=`/`IN`; several values of one filter are OR-ed.
 */
export function applyFilters<TB extends keyof Database, O>(
  qb: SelectQueryBuilder<Database, TB, O>,
  filters: ListParams['filters'],
): SelectQueryBuilder<Database, TB, O> {
  let out = qb;
  for (const f of filters) {
    const ref = sql.ref(f.column);
    const alternatives = f.values.map((v) => {
      // PostgreSQL fails on comparing an integer column with text that is not a 32-bit number.
      if (f.integer && !/^-?\d{1,9}$/u.test(v)) return sql<boolean>`1 = 0`;
      if (f.exact) return sql<boolean>`${ref} = ${f.integer ? Number(v) : v}`;
      return sql<boolean>`lower(${ref}) like ${likePattern(v)} escape '\\'`;
    });
    out = out.where(sql<boolean>`(${sql.join(alternatives, sql` or `)})`);
  }
  return out;
}

/** The requested order, then the primary key so pages are stable. */
export function applySorts<TB extends keyof Database, O>(
  qb: SelectQueryBuilder<Database, TB, O>,
  sorts: ListParams['sorts'],
  idColumn: string,
): SelectQueryBuilder<Database, TB, O> {
  let out = qb;
  for (const s of sorts) out = out.orderBy(sql.ref(s.column), s.descending ? 'desc' : 'asc');
  return out.orderBy(sql.ref(idColumn), 'asc');
}

/** Runs a count and one page of a filtered query. */
export async function page<TB extends keyof Database, O>(
  qb: SelectQueryBuilder<Database, TB, O>,
  params: ListParams,
  idColumn: string,
): Promise<{ rows: O[]; total: number }> {
  const filtered = applyFilters(qb, params.filters);
  const count = await filtered
    .clearSelect()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  const rows = await applySorts(filtered, params.sorts, idColumn)
    .offset((params.page.page - 1) * params.page.perPage)
    .limit(params.page.perPage)
    .execute();
  return { rows, total: Number((count as { n?: unknown } | undefined)?.n ?? 0) };
}
