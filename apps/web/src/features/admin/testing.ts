import { useGlobalStore } from '../../app/store.ts';

/** Signs the test in as a root admin (or not): AdminArea reads the store's user. */
export function signInForTest(rootAdmin: boolean): void {
  useGlobalStore.setState({
    flashes: [],
    user: {
      uuid: 'u-1',
      username: rootAdmin ? 'admin' : 'player',
      email: rootAdmin ? 'admin@example.com' : 'player@example.com',
      language: 'en',
      rootAdmin,
      useTotp: false,
      createdAt: null,
      updatedAt: null,
    },
  });
}

/** An application-API list body with one page's pagination. */
export function wireList<A>(object: string, items: A[], page = 1, perPage = 50, total = items.length) {
  return {
    object: 'list',
    data: items.map((attributes) => ({ object, attributes })),
    meta: {
      pagination: {
        total,
        count: items.length,
        per_page: perPage,
        current_page: page,
        total_pages: Math.max(1, Math.ceil(total / perPage)),
        links: {},
      },
    },
  };
}

export function wireUser(id: number, username: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    external_id: null,
    uuid: `uuid-${id}`,
    username,
    email: `${username}@example.com`,
    first_name: 'First',
    last_name: 'Last',
    language: 'en',
    root_admin: false,
    '2fa': false,
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
    ...extra,
  };
}

/** An application-API node (reference §5.1); `extra` overrides or adds fields. */
export function wireNode(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    uuid: `node-${id}`,
    public: true,
    name,
    description: null,
    location_id: 1,
    fqdn: `${name.toLowerCase()}.example.com`,
    scheme: 'https',
    behind_proxy: false,
    maintenance_mode: false,
    memory: 8192,
    memory_overallocate: 0,
    disk: 102400,
    disk_overallocate: 0,
    upload_size: 100,
    daemon_listen: 8080,
    daemon_sftp: 2022,
    daemon_base: '/var/lib/talon',
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: null,
    ...extra,
  };
}

/** One 422 error as the API words it (reference error format), for a field and the rule it broke. */
export function wireFieldError(field: string, rule: string, detail: string) {
  return { code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule } };
}

/** The API's 404 body (reference error format). */
export function wireNotFound() {
  return {
    errors: [
      {
        code: 'NotFoundHttpException',
        status: '404',
        detail: 'The requested resource could not be found on the server.',
      },
    ],
  };
}

/** An application-API database host on node 1; `extra` overrides or adds fields. */
export function wireDatabaseHost(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name,
    engine: 'mysql',
    host: '127.0.0.1',
    port: 3306,
    username: 'talon',
    max_databases: null,
    node: 1,
    node_ids: [1],
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
    ...extra,
  };
}

export interface FetchRoute {
  /** Default GET. */
  method?: string;
  /** The path without the query (`/api/application/users/7`), or a pattern tried on the whole URL. */
  url: string | RegExp;
  status: number;
  body?: unknown;
  /** Answer only the first matching call; later calls fall through to the next matching route. */
  once?: boolean;
}

/**
 * A fetch stub answering by method and address rather than by order, for screens that load
 * several things at once (an item and its lists). Unmatched calls get a 500 naming the call.
 */
export function routeFetch(routes: FetchRoute[]) {
  const pending = [...routes];
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fn = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const index = pending.findIndex(
      (r) =>
        (r.method ?? 'GET').toUpperCase() === method &&
        (typeof r.url === 'string' ? url.split('?')[0] === r.url : r.url.test(url)),
    );
    const route = pending[index];
    if (route?.once) pending.splice(index, 1);
    const status = route?.status ?? 500;
    const body = route ? route.body : { errors: [{ detail: `unexpected call ${method} ${url}` }] };
    const text = body === undefined ? null : JSON.stringify(body);
    return Promise.resolve(new Response(status === 204 ? null : text, { status }));
  };
  return { fn, calls };
}
