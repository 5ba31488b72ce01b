import fastifyCookie from '@fastify/cookie';
import { jsonTooDeep } from '@talon/shared/http-limits';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { apiAuthentication } from './http/api-auth.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { HttpError } from './http/errors.ts';
import { normalizeInput } from './http/input.ts';
import { registerRouteGuards } from './http/route-guard.ts';
import { jsonTooDeepError, serverLimits } from './http/request-limits.ts';
import { registerSessions } from './http/session.ts';
import { REDACT_PATHS, serializeRequest } from './http/request-log.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { serverRoutes } from './modules/servers/servers.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { startupRoutes } from './modules/startup/startup.routes.ts';
import { serverSettingsRoutes } from './modules/server-settings/server-settings.routes.ts';
import { networkRoutes } from './modules/network/network.routes.ts';
import { subuserRoutes } from './modules/subusers/subusers.routes.ts';
import { databaseRoutes } from './modules/databases/databases.routes.ts';
import { applicationDatabaseRoutes } from './modules/databases/databases.application.routes.ts';
import { backupRoutes } from './modules/backups/backups.routes.ts';
import { scheduleRoutes } from './modules/schedules/schedules.routes.ts';
import { applicationServerRoutes } from './modules/servers/servers.application.routes.ts';
import { applicationNestRoutes } from './modules/eggs/nests.application.routes.ts';
import { sshKeyRoutes } from './modules/ssh-keys/ssh-keys.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { applicationLocationRoutes } from './modules/locations/locations.routes.ts';
import { applicationAllocationRoutes } from './modules/nodes/allocations.routes.ts';
import { applicationNodeRoutes } from './modules/nodes/nodes.routes.ts';
import { applicationUserRoutes } from './modules/users/users.application.routes.ts';
import { remoteRoutes } from './remote/remote.routes.ts';
import { nodeSetupRemoteRoutes } from './remote/node-setup.routes.ts';
import { webRoutes } from './web/shell.ts';
import { applicationSettingsRoutes } from './modules/settings/settings.routes.ts';
import { applicationApiKeyRoutes } from './modules/api-keys/api-keys.application.routes.ts';
import { applicationOverviewRoutes } from './modules/overview/overview.routes.ts';
import { applicationEggTestRoutes } from './modules/egg-test/egg-test.routes.ts';

export interface BuildOptions {
  /** folder of the built web app (tests point elsewhere) */
  webDist?: string;
}

/** Builds the panel's HTTP application from its dependencies; main.ts and the tests both call it. */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // pino's Logger and Fastify's base logger type differ only in optional members.
  const { config } = ctx;
  const app: FastifyInstance = Fastify({
    // Request logs carry a redacted URL and no headers: secrets travel in query strings and cookies.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the assignment to FastifyInstance needs it
    loggerInstance: ctx.log.child(
      {},
      { serializers: { req: serializeRequest }, redact: REDACT_PATHS },
    ) as FastifyBaseLogger,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 10 * 1024 * 1024,
    // `/api/client/` answers as `/api/client`, as in the original: clients rely on it (nodeactyl's
    // getServerPage asks for `api/client/?page=N`).
    routerOptions: { ignoreTrailingSlash: true },
    ...serverLimits,
  });

  const routeMiss = registerErrorHandling(app);
  // Before any route: every client server route and application route must declare its access rule.
  registerRouteGuards(app, ctx.repositories.servers);
  registerSecurityHeaders(app, { https: config.appUrl.startsWith('https://') });
  await app.register(fastifyCookie);

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, raw, done) => {
    const text = String(raw);
    if (text.trim() === '') return done(null, {});
    // Before parsing: input normalisation and validation walk the value recursively.
    if (jsonTooDeep(text)) return done(jsonTooDeepError(), undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(
        new HttpError(
          400,
          'BadRequestHttpException',
          `The JSON data passed in the request appears to be malformed: ${(e as Error).message}`,
        ),
        undefined,
      );
    }
  });

  // Trim strings and turn '' into null everywhere, as clients of the original expect.
  // (Synchronous hooks: this runs on every request, and an async hook costs a promise each time.)
  app.addHook('preValidation', (req, _reply, done) => {
    if (Object.keys(req.query as object).length > 0) req.query = normalizeInput(req.query);
    // Raw bodies (file writes) are Buffers and stay as sent; so do the bodies of routes declaring
    // `config.rawStrings` (egg files and edits: install scripts are kept byte for byte).
    const rawStrings = (req.routeOptions.config as { rawStrings?: boolean } | undefined)?.rawStrings === true;
    if (typeof req.body === 'object' && req.body !== null && !Buffer.isBuffer(req.body) && !rawStrings)
      req.body = normalizeInput(req.body);
    done();
  });

  registerSessions(app, ctx.services.sessions, {
    secure: config.appUrl.startsWith('https://'),
    lifetimeMinutes: config.sessionLifetimeMinutes,
  });

  app.decorateRequest('actor', null);
  authRoutes(app, ctx);

  const authDeps = {
    users: ctx.repositories.users,
    apiKeys: ctx.services.apiKeys,
    activity: ctx.services.activity,
    throttle: ctx.apiThrottle,
    twoFactorLevel: ctx.twoFactorLevel,
  };

  await app.register(async (client) => {
    client.addHook('onRequest', apiAuthentication(authDeps, 'client', config.rateLimits.client));
    accountRoutes(client, ctx);
    twoFactorRoutes(client, ctx);
    apiKeyRoutes(client, ctx);
    sshKeyRoutes(client, ctx);
    activityRoutes(client, ctx);
    serverRoutes(client, ctx);
    fileRoutes(client, ctx);
    startupRoutes(client, ctx);
    serverSettingsRoutes(client, ctx);
    networkRoutes(client, ctx);
    subuserRoutes(client, ctx);
    databaseRoutes(client, ctx);
    backupRoutes(client, ctx);
    scheduleRoutes(client, ctx);
  });

  await app.register(async (application) => {
    application.addHook(
      'onRequest',
      apiAuthentication(authDeps, 'application', config.rateLimits.application),
    );
    applicationUserRoutes(application, ctx);
    applicationLocationRoutes(application, ctx);
    applicationNodeRoutes(application, ctx);
    applicationAllocationRoutes(application, ctx);
    applicationServerRoutes(application, ctx);
    applicationNestRoutes(application, ctx);
    applicationDatabaseRoutes(application, ctx);
    applicationSettingsRoutes(application, ctx);
    applicationApiKeyRoutes(application, ctx);
    applicationOverviewRoutes(application, ctx);
    applicationEggTestRoutes(application, ctx);
    // Last: unknown application routes (or known ones with another method: 405) are answered after
    // authentication, so the API's shape is not revealed to callers without a key.
    application.all('/api/application/*', { config: { acl: 'none' } }, async (req) => {
      throw routeMiss(req.method, req.url);
    });
  });

  // Apart from the node-token scope: a setup token is the only credential of a daemon being set up.
  await app.register(async (setup) => nodeSetupRemoteRoutes(setup, ctx));
  await app.register(async (remote) => remoteRoutes(remote, ctx));

  await webRoutes(app, ctx, routeMiss, opts.webDist);
  app.addHook('onClose', async () => ctx.services.servers.daemonClient.close());
  return app;
}
