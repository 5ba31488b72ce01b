import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors } from '../http/errors.ts';
import { nodeSetupService } from '../modules/nodes/node-setup.wiring.ts';

/** Redemptions per client address and window: a person pastes a command, nobody guesses tokens. */
export const SETUP_ATTEMPTS = 10;
const SETUP_WINDOW_MS = 60_000;

/**
 * `GET /api/remote/node-setup/{token}`: the daemon's `configure` command trades a setup token for
 * its node's configuration (our extension, docs/api.md "Nodes"). Authenticated by the token alone
 * (the daemon has no credentials yet), so it lives outside the node-token scope of the other
 * remote routes, and attempts are counted per address in the shared throttle store.
 */
export async function nodeSetupRemoteRoutes(app: FastifyInstance, ctx: AppContext) {
  const setup = nodeSetupService(ctx);
  // No HEAD twin: a link checker or proxy sending HEAD would use the token up unseen.
  const getOnly = { exposeHeadRoute: false };
  app.get<{ Params: { token: string } }>('/api/remote/node-setup/:token', getOnly, async (req, reply) => {
    const hit = await ctx.authThrottle.hit(`node-setup:${req.ip}`, SETUP_WINDOW_MS);
    if (hit.hits > SETUP_ATTEMPTS) throw errors.tooManyRequests(hit.retryAfter, SETUP_ATTEMPTS);
    const configuration = await setup.redeem(req.params.token, { userId: null, apiKeyId: null, ip: req.ip });
    // It carries the node's secret: no cache may keep it.
    return reply.header('cache-control', 'no-store').send(configuration);
  });
}
