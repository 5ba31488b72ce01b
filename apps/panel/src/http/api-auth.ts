import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/types.ts';
import type { ActivityService } from '../modules/activity/activity.service.ts';
import { bearerToken, KEY_TYPE, type ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import type { UsersRepository } from '../modules/users/users.repository.ts';
import { ipAllowed } from '../lib/ip.ts';
import { errors, HttpError } from './errors.ts';
import type { Cached } from '../context.ts';
import type { MemoryThrottle } from './throttle.ts';

export interface ApiAuthDeps {
  users: UsersRepository;
  apiKeys: ApiKeysService;
  activity: ActivityService;
  throttle: MemoryThrottle;
  /** 0 none, 1 root admins, 2 everyone */
  twoFactorLevel: Cached<0 | 1 | 2>;
}

/** Routes a user without two-factor may still call while it is required (to set it up). */
const TWO_FACTOR_EXEMPT = new Set([
  'GET /api/client/account',
  'GET /api/client/account/two-factor',
  'POST /api/client/account/two-factor',
  'DELETE /api/client/account/two-factor',
  'POST /api/client/account/two-factor/disable',
]);

export function twoFactorRequiredFor(user: User, level: 0 | 1 | 2): boolean {
  if (user.use_totp === 1) return false;
  return level === 2 || (level === 1 && user.root_admin === 1);
}

/**
 * Authenticates an API request, in the reference's order: session or bearer key (401), two-factor
 * requirement (400), key IP allow-list (403), rate limit (429), key type (403).
 */
export function apiAuthentication(
  deps: ApiAuthDeps,
  scope: 'client' | 'application',
  limitPerMinute: number,
) {
  return async function authenticate(req: FastifyRequest, reply: FastifyReply) {
    let user: User | undefined;
    req.actor = null;
    if (req.session?.userId) user = await deps.users.findById(req.session.userId);
    if (user) {
      req.actor = { user, apiKey: null };
    } else {
      const token = bearerToken(req.headers.authorization);
      // The common case (a key used again within a second) needs no await at all.
      const cached = token ? deps.apiKeys.resolveCached(token) : null;
      const found = cached !== undefined ? cached : token ? await deps.apiKeys.resolve(token) : null;
      if (!found) throw errors.unauthenticated();
      req.actor = { user: found.owner, apiKey: found.key };
    }
    const { user: actorUser, apiKey } = req.actor;

    // Without a trailing slash: routes answer either spelling (app.ts), and so do the exemptions.
    const route = `${req.method} ${(req.url.split('?')[0] ?? '').replace(/(?<=.)\/$/u, '')}`;
    if (
      !TWO_FACTOR_EXEMPT.has(route) &&
      twoFactorRequiredFor(actorUser, deps.twoFactorLevel.peek() ?? (await deps.twoFactorLevel()))
    ) {
      throw new HttpError(
        400,
        'TwoFactorAuthRequiredException',
        'Two-factor authentication is required on this account in order to access this endpoint.',
      );
    }

    if (apiKey && !ipAllowed(JSON.parse(apiKey.allowed_ips) as string[], req.ip)) {
      await deps.activity.log('auth:ip-blocked', { userId: actorUser.id, apiKeyId: apiKey.id, ip: req.ip }, [
        { type: 'user', id: actorUser.id },
      ]);
      throw errors.forbidden(
        `This IP address (${req.ip}) does not have permission to access the API using these credentials.`,
      );
    }

    const hit = deps.throttle.hitNow(`api.${scope}:${actorUser.uuid}`, 60_000);
    if (hit.hits > limitPerMinute) throw errors.tooManyRequests(hit.retryAfter, limitPerMinute);
    void reply.header('x-ratelimit-limit', String(limitPerMinute));
    void reply.header('x-ratelimit-remaining', String(Math.max(0, limitPerMinute - hit.hits)));

    if (scope === 'client' && apiKey?.key_type === KEY_TYPE.application) {
      throw errors.forbidden(
        'You are attempting to use an application API key on an endpoint that requires a client API key.',
      );
    }
    if (scope === 'application') {
      if (!actorUser.root_admin)
        throw errors.forbidden('This account does not have permission to access the API.');
    }
  };
}
