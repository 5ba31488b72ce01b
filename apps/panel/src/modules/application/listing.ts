import { type RawBuilder, sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/types.ts';
import { pageRequest, type PageRequest } from '../../http/envelope.ts';
import { filters as parseFilters, sorts as parseSorts } from '../../http/query.ts';

/** How a list endpoint filters and sorts: wire name → column (reference §1.5). */
export interface ListSpec {
  /** `integer`: an exact filter on a number column; a value that is not an integer matches nothing. */
  filters: Record<string, { column: string; exact?: boolean; integer?: boolean }>;
  sorts: Record<string, string>;
  /**
   * Extension `search=<text>`: a case-insensitive substring match over these text columns (OR-ed).
   * An entry is a column name or an SQL expression giving text, e.g. a subquery for a related
   * row's name. A list without `search` ignores the parameter.
   */
  search?: (string | RawBuilder<unknown>)[];
}

export interface ListParams {
  page: PageRequest;
  filters: { column: string; exact: boolean; integer: boolean; values: string[] }[];
  sorts: { column: string; descending: boolean }[];
  /** The trimmed search text and the expressions it is matched against; null when not searching. */
  search?: { text: string; columns: (string | RawBuilder<unknown>)[] } | null;
}

/** `search=text` (the first one if repeated); blank means no search. */
function searchText(query: Record<string, unknown>): string {
  const raw = [query.search].flat().find((v): v is string => typeof v === 'string');
  return raw?.trim() ?? '';
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
    search: searchParam(query, spec.search ?? []),
  };
}

/** Only the `search=` part, for lists that page by hand (no filters or sorts). */
export function searchParam(
  query: Record<string, unknown>,
  columns: (string | RawBuilder<unknown>)[],
): ListParams['search'] {
  const text = searchText(query);
  return columns.length > 0 && text !== '' ? { text, columns } : null;
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

/** Adds the `search` match: any of the columns contains the text, ignoring case and LIKE wildcards. */
export function applySearch<TB extends keyof Database, O>(
  qb: SelectQueryBuilder<Database, TB, O>,
  search: ListParams['search'] | undefined,
): SelectQueryBuilder<Database, TB, O> {
  if (!search) return qb;
  const pattern = likePattern(search.text);
  const matches = search.columns.map((c) => {
    const expr = typeof c === 'string' ? sql.ref(c) : c;
    // coalesce: a NULL column (e.g. no last name) simply does not match.
    return sql<boolean>`lower(coalesce(${expr}, '')) like ${pattern} escape '\\'`;
  });
  return qb.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
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
  const filtered = applySearch(applyFilters(qb, params.filters), params.search);
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
