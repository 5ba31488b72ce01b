/** Wire answers for the servers list, create and view tests (the fetch router is routeFetch in ../testing.ts). */

export function wireAllocation(id: number, port: number, extra: Record<string, unknown> = {}) {
  return { id, ip: '127.0.0.1', alias: null, port, notes: null, assigned: false, ...extra };
}

export function wireServer<E extends Record<string, unknown>>(id: number, name: string, extra: E = {} as E) {
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
