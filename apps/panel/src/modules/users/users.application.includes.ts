import type { User } from '../../db/types.ts';
import type { IncludeSources } from '../application/include-sources.ts';
import { withRelationships, type Includes } from '../application/includes.ts';
import { applicationUserAttributes } from './users.application.presenter.ts';

/**
 * Users as application objects with the `servers` include (reference §5.1), loaded with one query
 * for the whole page; included servers get the includes requested below it (`servers.egg`).
 */
export async function presentUsers(src: IncludeSources, rows: User[], inc: Includes) {
  const servers = await src.includedServers.lists(
    inc,
    'owner_id',
    rows.map((u) => u.id),
  );
  return rows.map((u) => {
    const owned = servers?.get(u.id);
    return withRelationships(applicationUserAttributes(u), owned ? { servers: owned } : {});
  });
}
