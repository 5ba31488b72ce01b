import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../http/context.ts';
import { requireActor } from '../../http/context.ts';
import { errors } from '../../http/errors.ts';
import { KEY_TYPE, type APPLICATION_RESOURCES } from '../api-keys/api-keys.service.ts';

export type AclResource = (typeof APPLICATION_RESOURCES)[number];
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
 * A preHandler for an application route: READ for GET, WRITE for everything else (reference §5.0).
 * Declared on each route so the permission a route needs is visible where the route is.
 */
export function acl(resource: AclResource) {
  return async function checkAcl(req: FastifyRequest): Promise<void> {
    const actor = requireActor(req);
    const bit = req.method === 'GET' || req.method === 'HEAD' ? ACL_READ : ACL_WRITE;
    if (!hasAcl(actor, resource, bit)) throw errors.forbidden();
  };
}
