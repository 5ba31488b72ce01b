/** Fractal-style envelopes of the Pterodactyl API (reference §1.2, §1.3). */
export interface Item<A> {
  object: string;
  attributes: A;
  meta?: Record<string, unknown>;
}

export function item<A>(object: string, attributes: A, meta?: Record<string, unknown>): Item<A> {
  return meta ? { object, attributes, meta } : { object, attributes };
}

export function list<A>(object: string, rows: A[], meta?: Record<string, unknown>) {
  const data = rows.map((attributes) => ({ object, attributes }));
  return meta ? { object: 'list', data, meta } : { object: 'list', data };
}

export interface PageRequest {
  page: number;
  perPage: number;
}

/** `page` < 1 or not a number means 1; `per_page` defaults and caps come from the endpoint. */
export function pageRequest(
  query: Record<string, unknown>,
  defaults: { perPage: number; max?: number },
): PageRequest {
  const page = Math.max(1, Number.parseInt(scalar(query.page) ?? '1', 10) || 1);
  const raw = Number.parseInt(scalar(query.per_page) ?? String(defaults.perPage), 10);
  const requested = Number.isNaN(raw) || raw < 1 ? defaults.perPage : raw;
  return { page, perPage: defaults.max ? Math.min(requested, defaults.max) : requested };
}

/**
 * A paginated list. `url` is the request's absolute URL; `keepQuery` keeps the other query
 * parameters in the links (the endpoints that "append query" in the original).
 */
export function paginated<A>(
  object: string,
  rows: A[],
  total: number,
  { page, perPage }: PageRequest,
  url: URL,
  keepQuery: boolean,
) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const link = (n: number) => {
    // The route's own URL: `/api/client/` and `/api/client` are one route (app.ts), named without the slash.
    const target = new URL(url.pathname.replace(/(.)\/+$/, '$1'), url.origin);
    if (keepQuery) url.searchParams.forEach((v, k) => k !== 'page' && target.searchParams.append(k, v));
    target.searchParams.set('page', String(n));
    return target.toString();
  };
  const links: Record<string, string> = {};
  if (page > 1) links.previous = link(page - 1);
  if (page < totalPages) links.next = link(page + 1);
  return list(object, rows, {
    pagination: {
      total,
      count: rows.length,
      per_page: perPage,
      current_page: page,
      total_pages: totalPages,
      links,
    },
  });
}

function scalar(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** The absolute URL of a request (pagination links are built from it). */
export function requestUrl(req: { protocol: string; host: string; url: string }): URL {
  return new URL(req.url, `${req.protocol}://${req.host}`);
}
