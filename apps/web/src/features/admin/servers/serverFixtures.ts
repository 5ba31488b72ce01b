/** Wire answers and a fetch router for the servers list and create tests. */

export interface Route {
  method?: string;
  /** Matched against the path (no query) when a string, the whole URL when a RegExp. */
  url: string | RegExp;
  status: number;
  body?: unknown;
}

/** Answers each call with the first route matching its method and address; records the calls. */
export function routes(list: Route[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fn = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const route = list.find(
      (r) =>
        (r.method ?? 'GET') === method &&
        (typeof r.url === 'string' ? url.split('?')[0] === r.url : r.url.test(url)),
    );
    const status = route?.status ?? 500;
    const body = route ? route.body : { errors: [{ detail: `unexpected call ${method} ${url}` }] };
    return Promise.resolve(
      new Response(status === 204 || body === undefined ? null : JSON.stringify(body), { status }),
    );
  };
  return { fn, calls };
}

export function wireNode(id: number, name: string) {
  return {
    id,
    uuid: `node-${id}`,
    public: true,
    name,
    description: null,
    location_id: 1,
    fqdn: '127.0.0.1',
    scheme: 'http',
    behind_proxy: false,
    maintenance_mode: false,
    memory: 8192,
    memory_overallocate: 0,
    disk: 51200,
    disk_overallocate: 0,
    upload_size: 100,
    daemon_listen: 8080,
    daemon_sftp: 2022,
    daemon_base: '/var/lib/talon',
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: null,
  };
}

export function wireAllocation(id: number, port: number, extra: Record<string, unknown> = {}) {
  return { id, ip: '127.0.0.1', alias: null, port, notes: null, assigned: false, ...extra };
}

export function wireServer(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    external_id: null,
    uuid: `0000000${id}-0000-4000-8000-000000000000`,
    identifier: `0000000${id}`,
    name,
    description: '',
    status: null,
    suspended: false,
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 0, threads: null, oom_disabled: true },
    feature_limits: { databases: 0, allocations: 0, backups: 1 },
    user: 3,
    node: 1,
    allocation: 11,
    nest: 1,
    egg: 2,
    container: { startup_command: 'node server.js', image: 'node:20', installed: 0, environment: {} },
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: null,
    ...extra,
  };
}

export function wireEggWithVariables() {
  return {
    id: 2,
    uuid: 'egg-2',
    name: 'Node.js Game Server',
    nest: 1,
    author: 'talon@example.com',
    description: null,
    docker_image: 'ghcr.io/talon/node:20',
    docker_images: { 'Node 20': 'ghcr.io/talon/node:20', 'Node 22': 'ghcr.io/talon/node:22' },
    config: { files: {}, startup: null, stop: '^C', logs: null, file_denylist: [], extends: null },
    startup: 'node server.js --port {{SERVER_PORT}}',
    script: { privileged: false, install: null, entry: 'bash', container: 'node:20', extends: null },
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
    relationships: {
      variables: {
        object: 'list',
        data: [
          {
            object: 'egg_variable',
            attributes: {
              id: 5,
              egg_id: 2,
              name: 'Game mode',
              description: 'How the world plays.',
              env_variable: 'GAME_MODE',
              default_value: 'survival',
              user_viewable: true,
              user_editable: true,
              rules: 'required|string|in:survival,creative',
            },
          },
          {
            object: 'egg_variable',
            attributes: {
              id: 6,
              egg_id: 2,
              name: 'Max players',
              description: 'Players at once.',
              env_variable: 'MAX_PLAYERS',
              default_value: '20',
              user_viewable: true,
              user_editable: true,
              rules: 'required|integer|between:1,100',
            },
          },
        ],
      },
    },
  };
}
