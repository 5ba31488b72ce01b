import { can } from '@talon/shared';
import { list } from '../../http/envelope.ts';
import { includes } from '../../http/query.ts';
import { subuserAttributes } from '../subusers/subusers.presenter.ts';
import type { SubusersRepository } from '../subusers/subusers.repository.ts';
import type { ServerAccess } from './server-access.ts';
import type { ServerBundle } from './servers.repository.ts';

const NULL_RESOURCE = { object: 'null_resource', attributes: null } as const;

/** A server as the client API shows it: its bundle and what the caller may do on it. */
export interface ShownServer {
  bundle: ServerBundle;
  access: ServerAccess;
}

/**
 * The available includes of the client `server` object (reference §3.1), for the relationships of
 * each of `servers` (the details route's one, or a page of the list): `egg` (uuid and name) and
 * `subusers` (a null resource without `user.read`), the subusers of the whole page in one query.
 * Unknown names are ignored, as the original does.
 */
export async function optionalServerRelationships(
  query: unknown,
  servers: readonly ShownServer[],
  subusers: SubusersRepository,
): Promise<Record<string, unknown>[]> {
  const wanted = includes((query ?? {}) as Record<string, unknown>);
  const mayRead = ({ access }: ShownServer) => can(access.permissions, 'user.read');
  const readable = wanted.has('subusers') ? servers.filter(mayRead).map((s) => s.bundle.server.id) : [];
  const rows = await subusers.listForServers(readable);
  return servers.map((shown) => {
    const out: Record<string, unknown> = {};
    const { egg, server } = shown.bundle;
    if (wanted.has('egg')) out.egg = { object: 'egg', attributes: { uuid: egg.uuid, name: egg.name } };
    if (wanted.has('subusers')) {
      out.subusers = mayRead(shown)
        ? list('server_subuser', rows.filter((r) => r.subuser.server_id === server.id).map(subuserAttributes))
        : NULL_RESOURCE;
    }
    return out;
  });
}
