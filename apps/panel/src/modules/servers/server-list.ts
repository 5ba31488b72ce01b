import type { User } from '../../db/types.ts';
import { listedServerAccess } from './server-access.ts';
import type { ShownServer } from './server-includes.ts';
import { clientServerAttributes } from './servers.presenter.ts';
import type { ListScope, ServersRepository } from './servers.repository.ts';

/**
 * One page of the client API's server list (reference §3.2), as `server` attributes. The page's
 * servers, then their nodes, eggs, allocations, variables and the caller's subuser rows are each
 * one query whatever the page size, so a 50-server page costs what a 5-server one does.
 */
export async function clientServerPage(
  repo: ServersRepository,
  user: User,
  scope: ListScope,
  opts: {
    search?: string;
    offset: number;
    limit: number;
    /** the requested includes of each server, for the whole page at once */
    relationships?: (servers: ShownServer[]) => Promise<Record<string, unknown>[]>;
  },
) {
  const { rows, total } = await repo.list(scope, opts);
  // Owners and root admins need no subuser row; only the others' are looked up.
  const shared = rows.filter((s) => s.owner_id !== user.id).map((s) => s.id);
  const [bundles, subusers] = await Promise.all([
    repo.bundles(rows),
    user.root_admin === 1 ? [] : repo.subusersOfUser(shared, user.id),
  ]);
  const subuserOf = new Map(subusers.map((s) => [s.server_id, s]));
  const shown = bundles.map((bundle) => ({
    bundle,
    access: listedServerAccess(user, bundle.server, subuserOf.get(bundle.server.id)),
  }));
  const extras = opts.relationships ? await opts.relationships(shown) : [];
  const data = shown.map(({ bundle, access }, i) => {
    const attributes = clientServerAttributes(bundle, access);
    const extra = extras[i];
    return extra ? { ...attributes, relationships: { ...attributes.relationships, ...extra } } : attributes;
  });
  return { data, total };
}
