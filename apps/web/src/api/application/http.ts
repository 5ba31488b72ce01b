import { http, request, type HttpOptions } from '../http.ts';

/**
 * The application API (/api/application, reference §5) as the admin screens call it: a root
 * admin's cookie session, with the XSRF header that api/http.ts adds to every request. This file
 * unwraps the `{object, attributes}` items and `{object:'list', data, meta.pagination}` lists; the
 * per-area files map the attributes to camelCase.
 */
export const APP = '/api/application';

export interface WireItem<A> {
  object: string;
  attributes: A;
  meta?: Record<string, unknown>;
}

export interface WirePagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

export interface WireList<A> {
  object: 'list';
  data: WireItem<A>[];
  meta?: { pagination?: WirePagination };
}

export interface Pagination {
  total: number;
  count: number;
  perPage: number;
  currentPage: number;
  totalPages: number;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * What a list screen asks for: page, search text (extension `search`), sort (`name` or `-name`),
 * and `filter[...]` values. Empty values are left out of the address.
 */
export interface ListQuery {
  page?: number;
  perPage?: number;
  search?: string;
  sort?: string;
  filters?: Record<string, string | undefined>;
  include?: string[];
}

export function listParams(query: ListQuery = {}): Record<string, string | number | undefined> {
  const params: Record<string, string | number | undefined> = {
    page: query.page && query.page > 1 ? query.page : undefined,
    per_page: query.perPage,
    search: query.search ? query.search : undefined,
    sort: query.sort ? query.sort : undefined,
    include: query.include?.length ? query.include.join(',') : undefined,
  };
  for (const [key, value] of Object.entries(query.filters ?? {})) {
    if (value !== undefined && value !== '') params[`filter[${key}]`] = value;
  }
  return params;
}

export function toPagination(wire: WirePagination | undefined, count: number): Pagination {
  if (!wire) return { total: count, count, perPage: count, currentPage: 1, totalPages: 1 };
  return {
    total: wire.total,
    count: wire.count,
    perPage: wire.per_page,
    currentPage: wire.current_page,
    totalPages: Math.max(1, wire.total_pages),
  };
}

/** GET a paginated list; `map` turns one item's attributes into the screen's shape. */
export async function getPage<A, T>(
  path: string,
  query: ListQuery,
  map: (attributes: A) => T,
  options?: HttpOptions,
): Promise<Page<T>> {
  const { data } = await http.get<WireList<A>>(APP + path, { ...options, params: listParams(query) });
  const items = data.data.map((item) => map(item.attributes));
  return { items, pagination: toPagination(data.meta?.pagination, items.length) };
}

/** GET an unpaginated list (a nest's eggs, a server's databases). */
export async function getAll<A, T>(
  path: string,
  map: (attributes: A) => T,
  include?: string[],
): Promise<T[]> {
  const { data } = await http.get<WireList<A>>(APP + path, {
    params: { include: include?.length ? include.join(',') : undefined },
  });
  return data.data.map((item) => map(item.attributes));
}

export async function getItem<A, T>(path: string, map: (attributes: A) => T, include?: string[]): Promise<T> {
  const { data } = await http.get<WireItem<A>>(APP + path, {
    params: { include: include?.length ? include.join(',') : undefined },
  });
  return map(data.attributes);
}

/** POST/PATCH answering an item; `request` from api/http.ts carries the XSRF header. */
export async function sendItem<A, T>(
  method: 'POST' | 'PATCH' | 'PUT',
  path: string,
  body: unknown,
  map: (attributes: A) => T,
): Promise<T> {
  const { data } = await requestApp<WireItem<A>>(method, path, body);
  return map(data.attributes);
}

export function requestApp<T = unknown>(method: string, path: string, body?: unknown) {
  return request<T>(method, APP + path, { body });
}

export async function deleteItem(path: string): Promise<void> {
  await http.delete(APP + path);
}

/** An included relationship (`attributes.relationships.<name>`), or null when refused/absent. */
export interface WireRelationships {
  relationships?: Record<
    string,
    WireItem<unknown> | WireList<unknown> | { object: 'null_resource'; attributes: null }
  >;
}

export function relationItem<A>(wire: WireRelationships, name: string): A | null {
  const rel = wire.relationships?.[name];
  if (!rel || rel.object === 'null_resource' || rel.object === 'list') return null;
  return (rel as WireItem<A>).attributes;
}

export function relationList<A>(wire: WireRelationships, name: string): A[] {
  const rel = wire.relationships?.[name];
  if (!rel || rel.object !== 'list') return [];
  return (rel as WireList<A>).data.map((item) => item.attributes);
}

/** How many items an included list holds (a location's nodes, a user's servers); null when not asked. */
export function relationCount(wire: WireRelationships, name: string): number | null {
  return wire.relationships?.[name] ? relationList(wire, name).length : null;
}

/** `/base/<id>` with the id escaped (ids from the address bar may be any text). */
export function itemPath(base: string, id: number | string): string {
  return `${base}/${encodeURIComponent(String(id))}`;
}

/** Application `allocation` (reference §5.1): a node's address, or one of a server's. */
export interface WireAllocation {
  id: number;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
  assigned: boolean;
}

export type Allocation = WireAllocation;

export function toAllocation(wire: WireAllocation): Allocation {
  return {
    id: wire.id,
    ip: wire.ip,
    alias: wire.alias,
    port: wire.port,
    notes: wire.notes,
    assigned: wire.assigned,
  };
}
