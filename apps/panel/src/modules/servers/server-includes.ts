import { can } from '@talon/shared';
import { list } from '../../http/envelope.ts';
import { includes } from '../../http/query.ts';
import { subuserAttributes } from '../subusers/subusers.presenter.ts';
import type { SubusersRepository } from '../subusers/subusers.repository.ts';
import type { ServerAccess } from './server-access.ts';
import type { ServerBundle } from './servers.repository.ts';

const NULL_RESOURCE = { object: 'null_resource', attributes: null } as const;

/**
 * The available includes of the client `server` object (reference §3.1), for the relationships:
 * `egg` (uuid and name) and `subusers` (a null resource without `user.read`). Unknown names are
 * ignored, as the original does.
 */
export async function optionalServerRelationships(
  query: unknown,
  bundle: ServerBundle,
  access: ServerAccess,
  subusers: SubusersRepository,
): Promise<Record<string, unknown>> {
  const wanted = includes((query ?? {}) as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  if (wanted.has('egg')) {
    out.egg = { object: 'egg', attributes: { uuid: bundle.egg.uuid, name: bundle.egg.name } };
  }
  if (wanted.has('subusers')) {
    out.subusers = can(access.permissions, 'user.read')
      ? list('server_subuser', (await subusers.listForServer(bundle.server.id)).map(subuserAttributes))
      : NULL_RESOURCE;
  }
  return out;
}
