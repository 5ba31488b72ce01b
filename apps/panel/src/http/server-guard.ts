import type { PermissionKey } from '@talon/shared';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { HttpError } from './errors.ts';
import { requireActor } from './context.ts';
import {
  ANY_PERMISSION,
  permit,
  resolveServerAccess,
  resolveUsableServer,
  type PermittedServerAccess,
  type ServerAccess,
  type StateRule,
  type UsableServerAccess,
} from '../modules/servers/server-access.ts';
import type { ServersRepository } from '../modules/servers/servers.repository.ts';

/**
 * What a client route under `/api/client/servers/:server` declares where it is registered: the
 * guard (installed for every such route by http/route-guard.ts) resolves the caller's access once,
 * in the reference's order, before the handler runs.
 */
export interface ServerRouteRule {
  /**
   * The permission key a subuser needs; `any` when server access is enough; a function of the
   * (parsed, trimmed) request when the input decides, as the power signal does.
   */
  permission: PermissionKey | typeof ANY_PERMISSION | ((req: FastifyRequest) => string);
  /** `usable`: 409 on any conflict; `websocket`: root admins may watch; `none`: the details only */
  state: StateRule | 'none';
  /** the refusal where the reference names another one than the default 403 */
  denied?: () => HttpError;
  /** a resource in the path looked up through the server: 404 after the 409, before the 403 */
  nested?: NestedResource<unknown>;
}

/** A resource named in the path, found through the server (reference §3.0 step 4). */
export interface NestedResource<T> {
  resolve(access: UsableServerAccess, req: FastifyRequest): Promise<void>;
  /** what the guard found for this request */
  of(req: FastifyRequest): T;
}

export function nestedResource<T>(
  find: (access: UsableServerAccess, params: Record<string, string>) => Promise<T>,
): NestedResource<T> {
  const found = new WeakMap<FastifyRequest, { value: T }>();
  return {
    async resolve(access, req) {
      found.set(req, { value: await find(access, req.params as Record<string, string>) });
    },
    of(req) {
      const entry = found.get(req);
      if (!entry) throw new Error(`${req.method} ${req.url}: the route does not declare this resource`);
      return entry.value;
    },
  };
}

/** Route options declaring a server route's rule: `app.get(url, serverRoute('file.read'), …)`. */
export function serverRoute(
  permission: ServerRouteRule['permission'],
  rule: Omit<ServerRouteRule, 'permission' | 'state'> & { state?: ServerRouteRule['state'] } = {},
): { config: { server: ServerRouteRule } } {
  return { config: { server: { ...rule, permission, state: rule.state ?? 'usable' } } };
}

const shown = new WeakMap<FastifyRequest, ServerAccess>();
const permitted = new WeakMap<FastifyRequest, PermittedServerAccess>();

/** The access the guard resolved for a `state: 'none'` route (the details). */
export function serverAccess(req: FastifyRequest): ServerAccess {
  const access = shown.get(req) ?? permitted.get(req);
  if (!access) throw new Error(`${req.method} ${req.url}: reached without the server guard`);
  return access;
}

/** The access the guard resolved and permitted for every other server route. */
export function permittedAccess(req: FastifyRequest): PermittedServerAccess {
  const access = permitted.get(req);
  if (!access) throw new Error(`${req.method} ${req.url}: reached without a permission check`);
  return access;
}

/**
 * The guard of one route: 404 (no such server, no relation), 409 (state), 404 (nested resource),
 * 403 (permission), each step before the next, and nothing of the handler before all of them.
 */
export function serverGuard(servers: ServersRepository, rule: ServerRouteRule): preHandlerAsyncHookHandler {
  return async function guardServer(req) {
    const { user } = requireActor(req);
    const identifier = (req.params as { server: string }).server;
    if (rule.state === 'none') {
      shown.set(req, await resolveServerAccess(servers, user, identifier));
      return;
    }
    const usable = await resolveUsableServer(servers, user, identifier, rule.state);
    if (rule.nested) await rule.nested.resolve(usable, req);
    const permission = typeof rule.permission === 'function' ? rule.permission(req) : rule.permission;
    permitted.set(req, permit(usable, permission, rule.denied));
  };
}

/** Why a declaration cannot be used, or null. */
export function ruleProblem(rule: ServerRouteRule): string | null {
  if (rule.state === 'none' && (rule.permission !== ANY_PERMISSION || rule.nested)) {
    return 'a route shown in every state (state none) can only need permission any, nothing nested';
  }
  return null;
}
