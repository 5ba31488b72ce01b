import { toServer, type WireServer } from '../api/servers.ts';
import { useServerStore } from '../features/server/store.ts';

/**
 * Puts the test server "Survival" (identifier abcd1234) in the server area's store, as the server
 * area does after loading it, with `permissions` (`['*']` makes the user its owner). `wire`
 * overrides fields of the panel's answer.
 */
export function setTestServer(permissions: string[], wire: Partial<WireServer> = {}): void {
  useServerStore.getState().setServer(
    toServer({
      identifier: 'abcd1234',
      internal_id: 7,
      uuid: 'abcd1234-0000-4000-8000-000000000001',
      name: 'Survival',
      description: '',
      node: 'Local',
      status: null,
      ...wire,
    }),
    permissions,
    permissions[0] === '*',
  );
}
