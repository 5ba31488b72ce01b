import { vi } from 'vitest';
import { renderAt } from '../../../../test/render.tsx';
import { wireList, wireNode, wireUser } from '../../testing.ts';
import { serverViewRoute } from '../index.ts';
import { wireAllocation as anyAllocation, wireServer as anyServer } from '../serverFixtures.ts';

/** One recorded request of the fake API. */
export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = { status: number; body?: unknown };
type Handler = Answer | ((call: ApiCall) => Answer);

/**
 * A fake application API answering by `METHOD /path` (query ignored), so the order in which a
 * tab's queries start does not matter. Unknown requests answer 500 with "unexpected call". Records
 * every request.
 */
export function fakeApi(handlers: Record<string, Handler | Handler[]>) {
  const calls: ApiCall[] = [];
  const queues = new Map(
    Object.entries(handlers).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
  );
  const fn = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://panel',
    );
    const method = init?.method ?? 'GET';
    const call: ApiCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const entry = queues.get(`${method} ${url.pathname}`);
    // A list of answers is used in order; its last one repeats.
    const handler = Array.isArray(entry) ? (entry.length > 1 ? entry.shift() : entry[0]) : entry;
    const answer =
      handler === undefined
        ? { status: 500, body: { errors: [{ detail: `unexpected call ${method} ${url.pathname}` }] } }
        : typeof handler === 'function'
          ? handler(call)
          : handler;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return Promise.resolve(new Response(answer.status === 204 ? null : text, { status: answer.status }));
  };
  vi.stubGlobal('fetch', fn);
  return {
    calls,
    /** The requests with this method and path. */
    made: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

export const SERVER_PATH = '/api/application/servers/7';

export function wireAllocation(id: number, port: number, assigned = true) {
  return anyAllocation(id, port, { ip: '10.0.0.5', assigned });
}

/** The server the tests look at: "Lobby" (id 7) of alice on node "local", primary 10.0.0.5:25565. */
export function wireServer(extra: Record<string, unknown> = {}) {
  return {
    object: 'server',
    attributes: anyServer(7, 'Lobby', {
      uuid: 'c0ffee00-1111-2222-3333-444455556666',
      identifier: 'c0ffee00',
      description: 'The hub',
      limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: true },
      feature_limits: { databases: 2, allocations: 3, backups: 1 },
      egg: 5,
      container: {
        startup_command: 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
        image: 'ghcr.io/talon/java:21',
        installed: 1,
        environment: { SERVER_JARFILE: 'server.jar' },
      },
      created_at: '2025-03-01T10:00:00+00:00',
      relationships: {
        user: { object: 'user', attributes: wireUser(3, 'alice') },
        node: {
          object: 'node',
          attributes: wireNode(1, 'local', {
            fqdn: '127.0.0.1',
            scheme: 'http',
            disk: 50000,
            daemon_base: '/srv',
            created_at: '2025-01-01T00:00:00+00:00',
            allocated_resources: { memory: 1024, disk: 5120 },
          }),
        },
        allocations: wireList('allocation', [wireAllocation(11, 25565), wireAllocation(12, 25566)]),
      },
      ...extra,
    }),
  };
}

export function wireEgg(
  id: number,
  name: string,
  variables: Record<string, unknown>[] = [],
  extra: Record<string, unknown> = {},
) {
  return {
    object: 'egg',
    attributes: {
      id,
      uuid: `egg-${id}`,
      name,
      nest: 1,
      author: 'a@example.com',
      description: null,
      docker_image: 'ghcr.io/talon/java:21',
      docker_images: { 'Java 21': 'ghcr.io/talon/java:21', 'Java 17': 'ghcr.io/talon/java:17' },
      config: { files: {}, startup: null, stop: 'stop', logs: null, file_denylist: [], extends: null },
      startup: `run-${name}`,
      script: { privileged: false, install: null, entry: 'bash', container: 'alpine', extends: null },
      created_at: '2025-01-01T00:00:00+00:00',
      updated_at: '2025-01-01T00:00:00+00:00',
      relationships: { variables: wireList('egg_variable', variables) },
      ...extra,
    },
  };
}

export function wireVariable(env: string, name: string, rules: string, extra: Record<string, unknown> = {}) {
  return {
    id: env.length,
    egg_id: 5,
    name,
    description: `${name} of the server`,
    env_variable: env,
    default_value: 'server.jar',
    user_viewable: true,
    user_editable: true,
    rules,
    created_at: '2025-01-01T00:00:00.000000Z',
    updated_at: '2025-01-01T00:00:00.000000Z',
    ...extra,
  };
}

/** Renders the server view at /admin/servers/view/7/<tab>, with the servers list page behind it. */
export function renderServerView(tab = '') {
  return renderAt(<p>nothing here</p>, {
    path: `/admin/servers/view/7${tab ? `/${tab}` : ''}`,
    routes: [
      { path: '/admin/servers', element: <p>The servers list</p> },
      { ...serverViewRoute, path: '/admin/servers/view/:id' },
    ],
  });
}
