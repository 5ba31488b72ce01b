import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.ts';
import type { SessionState, SessionsService } from '../modules/sessions/sessions.service.ts';
import { errors } from './errors.ts';

export const SESSION_COOKIE = 'talon_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Loads the cookie session, enforces the XSRF double-submit on state-changing requests that carry
 * the session cookie (and on every /auth POST), and writes the cookies back. Bearer-key requests
 * without the cookie are not sessions and are not subject to XSRF.
 */
export function registerSessions(
  app: FastifyInstance,
  sessions: SessionsService,
  opts: { secure: boolean; lifetimeMinutes: number },
) {
  app.decorateRequest('session', null);

  const check = async (req: FastifyRequest, token: string | undefined) => {
    // A cookie without a stored session is a guest's (guests have no row): its XSRF token is derived.
    req.session = token ? ((await sessions.load(token)) ?? sessions.guest(token)) : null;
    const stateful = token !== undefined || req.url.startsWith('/auth/');
    if (stateful && STATE_CHANGING.has(req.method)) {
      const header = req.headers['x-xsrf-token'] ?? req.headers['x-csrf-token'];
      const sent = typeof header === 'string' ? decodeURIComponent(header) : '';
      if (!req.session || !sent || !safeEqual(sent, req.session.csrfToken)) throw errors.csrf();
    }
    if (req.session) await sessions.touch(req.session);
  };

  // Synchronous wrappers: API-key requests (no cookie, no /auth) skip the promise entirely.
  app.addHook('onRequest', (req, _reply, done) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token === undefined && !req.url.startsWith('/auth/')) {
      req.session = null;
      done();
      return;
    }
    check(req, token).then(() => done(), done);
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.session) writeSessionCookies(reply, req.session, opts);
    done(null, payload);
  });
}

export function writeSessionCookies(
  reply: FastifyReply,
  session: SessionState,
  opts: { secure: boolean; lifetimeMinutes: number },
) {
  const maxAge = opts.lifetimeMinutes * 60;
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.secure,
    maxAge,
  });
  // Readable by the web app, which echoes it in X-XSRF-TOKEN.
  reply.setCookie(XSRF_COOKIE, session.csrfToken, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: opts.secure,
    maxAge,
  });
}

/**
 * Makes sure the request has a session: a new guest when it has none. A guest is only a cookie
 * (nothing is written to the database), so anonymous page views cost no row.
 */
export function ensureSession(req: FastifyRequest, sessions: SessionsService): SessionState {
  req.session ??= sessions.guest();
  return req.session;
}
