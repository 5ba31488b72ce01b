import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../http/context.ts';
import { requireActor } from '../../http/context.ts';
import { errors } from '../../http/errors.ts';
import { KEY_TYPE, type APPLICATION_RESOURCES } from '../api-keys/api-keys.service.ts';

export type AclResource = (typeof APPLICATION_RESOURCES)[number];
/**
 * What an application route declares: a key resource, or `session` for the routes only a root
 * admin's own cookie session may use (panel settings, API keys: a key must not mint keys or read
 * the mail password).
 */
export type AclDeclaration = AclResource | 'session';
export const ACL_READ = 1;
export const ACL_WRITE = 2;

/**
 * Whether the caller may use `resource` with `bit`. Only application keys carry per-resource bits;
 * the authentication hook has already refused every non-admin, so root admins' client keys and
 * sessions have full access (reference §2.6).
 */
export function hasAcl(actor: Actor, resource: AclResource, bit: number): boolean {
  const key = actor.apiKey;
  if (!key || key.key_type !== KEY_TYPE.application) return true;
  return (key[resource] & bit) !== 0;
}

/**
 * Route options declaring the ACL resource of an application route, where the route is registered:
 * `app.get(url, acl('r_servers'), …)`. http/route-guard.ts refuses to register an application route
 * without one and installs {@link aclGuard} on each.
 */
export function acl<D extends AclDeclaration>(resource: D): { config: { acl: D } } {
  return { config: { acl: resource } };
}

/** The check of a declared resource: READ for GET and HEAD, WRITE for everything else (§5.0). */
export function aclGuard(resource: AclResource) {
  return async function checkAcl(req: FastifyRequest): Promise<void> {
    const actor = requireActor(req);
    const bit = req.method === 'GET' || req.method === 'HEAD' ? ACL_READ : ACL_WRITE;
    if (!hasAcl(actor, resource, bit)) throw errors.forbidden();
  };
}

/**
 * The check of `acl('session')`: any API key, even a root admin's application key with every
 * right, is refused; only a session is left (api-auth has already refused non-admin sessions).
 */
export function sessionOnlyGuard() {
  return async function checkSessionOnly(req: FastifyRequest): Promise<void> {
    if (requireActor(req).apiKey !== null) throw errors.forbidden();
  };
}
