import type { FastifyInstance, RouteOptions } from 'fastify';
import { aclGuard, sessionOnlyGuard, type AclDeclaration } from '../modules/application/acl.ts';
import type { ServersRepository } from '../modules/servers/servers.repository.ts';
import { ruleProblem, serverGuard, type ServerRouteRule } from './server-guard.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** declared by every route under /api/client/servers/:server (http/server-guard.ts) */
    server?: ServerRouteRule;
    /**
     * declared by every /api/application route: its resource, `session` for root-admin-session-only
     * routes, or `none` for the catch-all
     */
    acl?: AclDeclaration | 'none';
  }
}

/** One registered route as the guard saw it (HEAD routes Fastify adds for GET included). */
export interface DeclaredRoute {
  method: string;
  url: string;
  server?: ServerRouteRule;
  acl?: AclDeclaration | 'none';
}

const tables = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route registered on `app` since {@link registerRouteGuards}, for the test that walks them. */
export function routeTable(app: FastifyInstance): readonly DeclaredRoute[] {
  return tables.get(app) ?? [];
}

/**
 * The one place where access to client server routes and application routes is enforced. Called
 * on the root instance before any route, so its onRoute hook sees every route of every scope. A
 * route under `/api/client/servers/` must declare its server rule and one under `/api/application`
 * its ACL resource; a route that declares nothing is refused at registration (the panel does not
 * start), so forgetting a check cannot ship as an open route. The check itself runs as the route's
 * first preHandler, after authentication (an onRequest hook of the API scopes).
 */
export function registerRouteGuards(app: FastifyInstance, servers: ServersRepository): void {
  const table: DeclaredRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      table.push({ method, url: route.url, server: route.config?.server, acl: route.config?.acl });
    }
    if (route.url.startsWith('/api/client/servers/')) guardServerRoute(route, servers);
    if (route.url.startsWith('/api/application')) guardApplicationRoute(route);
  });
}

const name = (route: RouteOptions) => `${[route.method].flat().join(',')} ${route.url}`;

function guardServerRoute(route: RouteOptions, servers: ServersRepository): void {
  const rule = route.config?.server;
  if (!rule) throw new Error(`${name(route)} declares no server access rule (config.server)`);
  if (!/^\/api\/client\/servers\/:server(\/|$)/u.test(route.url)) {
    throw new Error(`${name(route)} must name the server :server, which the guard resolves`);
  }
  const problem = ruleProblem(rule);
  if (problem) throw new Error(`${name(route)}: ${problem}`);
  prependPreHandler(route, serverGuard(servers, rule));
}

function guardApplicationRoute(route: RouteOptions): void {
  const resource = route.config?.acl;
  if (!resource) throw new Error(`${name(route)} declares no ACL resource (config.acl)`);
  if (resource === 'session') prependPreHandler(route, sessionOnlyGuard());
  else if (resource !== 'none') prependPreHandler(route, aclGuard(resource));
}

/** The guard runs before any preHandler the route brings itself. */
function prependPreHandler(route: RouteOptions, guard: NonNullable<RouteOptions['preHandler']>): void {
  const own = route.preHandler ? [route.preHandler].flat() : [];
  route.preHandler = [guard, ...own].flat();
}
