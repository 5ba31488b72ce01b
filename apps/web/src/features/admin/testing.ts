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
