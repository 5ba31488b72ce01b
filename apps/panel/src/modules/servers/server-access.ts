import { ADMIN_SOCKET_PERMISSIONS, can, WILDCARD } from '@talon/shared';
import { parseFolderScope, type FolderScope } from '@talon/shared/files/scope';
import type { Node, Server, Subuser, User } from '../../db/types.ts';
import { errors, HttpError } from '../../http/errors.ts';
import type { ServersRepository } from './servers.repository.ts';

/** What the caller may do on one server, resolved once per request. */
export interface ServerAccess {
  server: Server;
  user: User;
  isOwner: boolean;
  /** `['*']` for the owner and root admins, else the subuser's stored keys */
  permissions: string[];
  /** Our extension: the only folders a subuser's file permissions reach; absent or null = all */
  fileScope?: FolderScope;
}

/**
 * Access to a server whose state was checked (reference §3.0 step 3): what every client route but
 * the details gets, so its service can only ever start after the 409. Carries the server's node.
 */
export interface UsableServerAccess extends ServerAccess {
  node: Node;
}

/**
 * Which state rule a route follows: `usable` refuses every conflict; `websocket` lets root admins
 * watch a server that is installing or restoring, never a suspended one or one on a node in
 * maintenance.
 */
export type StateRule = 'usable' | 'websocket';

/**
 * The server-access guard (DESIGN.md §4): owner, root admin or subuser, else 404 so ids cannot be
 * probed. The server's state is not looked at: only the details route uses this alone (and the
 * server list, per row); every other route goes through {@link resolveUsableServer}.
 */
export async function resolveServerAccess(
  repo: ServersRepository,
  user: User,
  identifier: string,
): Promise<ServerAccess> {
  const found = await repo.findWithNode(identifier);
  if (!found) throw errors.notFound();
  return accessTo(repo, user, found.server);
}

async function accessTo(repo: ServersRepository, user: User, server: Server): Promise<ServerAccess> {
  const isOwner = server.owner_id === user.id;
  if (isOwner || user.root_admin === 1) return listedServerAccess(user, server, undefined);
  return listedServerAccess(user, server, await repo.findSubuser(server.id, user.id));
}

/**
 * The access of a server already found in the caller's list: the same grants as
 * {@link resolveServerAccess} decides, from the caller's subuser row of it fetched with the page's.
 */
export function listedServerAccess(user: User, server: Server, subuser: Subuser | undefined): ServerAccess {
  const isOwner = server.owner_id === user.id;
  if (isOwner || user.root_admin === 1) return { server, user, isOwner, permissions: [WILDCARD] };
  // The list only holds servers the caller owns, is a subuser of, or (root admins) any server.
  if (!subuser) throw errors.notFound('The requested resource does not exist on this server.');
  return {
    server,
    user,
    isOwner,
    permissions: JSON.parse(subuser.permissions) as string[],
    fileScope: parseFolderScope(subuser.file_paths),
  };
}

/**
 * The first two steps of a client server route's guard, in the reference's order (§2.9, §3.0):
 * unknown server or no relation (404), then the server's state (409). The route guard
 * (http/server-guard.ts) goes on with a nested resource (404) and the permission ({@link permit},
 * 403); services then check the input (422), so the order lives here and nowhere else.
 */
export async function resolveUsableServer(
  repo: ServersRepository,
  user: User,
  identifier: string,
  rule: StateRule = 'usable',
): Promise<UsableServerAccess> {
  const found = await repo.findWithNode(identifier);
  if (!found?.node) throw errors.notFound();
  const { node } = found;
  const access = await accessTo(repo, user, found.server);
  const conflict = serverConflict(access.server, node.maintenance_mode === 1);
  if (conflict && !(rule === 'websocket' && adminMayWatch(access.user, conflict))) {
    throw conflictError(conflict);
  }
  return { ...access, node };
}

/** Root admins may still watch an installing or restoring server's console; nobody a suspended one. */
function adminMayWatch(user: User, conflict: Conflict): boolean {
  return user.root_admin === 1 && conflict !== 'suspended' && conflict !== 'maintenance';
}

/** Declared by routes that need server access and nothing more (reference §3.0 "any"). */
export const ANY_PERMISSION = 'any' as const;

/**
 * Held only by the owner and root admins (their grant is the wildcard itself): what a route
 * declares when no subuser permission can allow the request, e.g. an unknown power signal.
 */
export const OWNER_ONLY = WILDCARD;

declare const permitted: unique symbol;

/**
 * Access to a usable server whose route permission was checked: the type services take, so a
 * service can only run after the whole guard (404, 409, nested 404, 403) did.
 */
export type PermittedServerAccess = UsableServerAccess & { readonly [permitted]: true };

/**
 * The permission step (403) of the guard. `denied` is the refusal where the reference names another
 * code or text than the default one (the websocket's).
 */
export function permit(
  access: UsableServerAccess,
  permission: string,
  denied: () => HttpError = () => errors.forbidden(),
): PermittedServerAccess {
  if (permission !== ANY_PERMISSION && !can(access.permissions, permission)) throw denied();
  return access as PermittedServerAccess;
}

/**
 * The caller's permission list as the reference reports it (§3.3 `meta.user_permissions`, §3.4 the
 * websocket token's `permissions`): root admins, owners or not, also get the admin-only streams the
 * daemon gates (install output, real error texts, transfer logs); owners `['*']`; subusers theirs.
 */
export function socketPermissions(access: ServerAccess): string[] {
  return access.user.root_admin === 1
    ? [...access.permissions, ...ADMIN_SOCKET_PERMISSIONS]
    : access.permissions;
}

export type Conflict = 'suspended' | 'maintenance' | 'installing' | 'restoring' | 'transferring';

const CONFLICT_TEXT: Record<Conflict, string> = {
  suspended: 'This server is currently suspended and the functionality requested is unavailable.',
  maintenance:
    'The node of this server is currently under maintenance and the functionality requested is unavailable.',
  installing: 'This server has not yet completed its installation process, please try again later.',
  restoring: 'This server is currently restoring from a backup, please try again later.',
  transferring: 'This server is currently being transferred to a new machine, please try again later.',
};

/** The first reason the server cannot be used right now, or null. */
export function serverConflict(server: Server, nodeInMaintenance: boolean): Conflict | null {
  if (server.status === 'suspended') return 'suspended';
  if (nodeInMaintenance) return 'maintenance';
  if (server.status === 'installing' || server.status === 'install_failed') return 'installing';
  if (server.status === 'restoring_backup') return 'restoring';
  return null;
}

export function conflictError(conflict: Conflict): HttpError {
  return new HttpError(409, 'ServerStateConflictException', CONFLICT_TEXT[conflict]);
}
