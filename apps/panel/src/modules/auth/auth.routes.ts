import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { errors } from '../../http/errors.ts';
import { ensureSession } from '../../http/session.ts';
import { limiterSource } from '../../http/throttle.ts';
import { verifyRecaptcha } from './recaptcha.ts';
import { userBootstrap } from '../users/users.presenter.ts';
import type { LoginResult } from './auth.service.ts';

/** `/auth/*` and `/sanctum/csrf-cookie`: the session sign-in flow of reference §2.2. */
export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

  /** Per-source request limit on the sign-in routes (the original shares one bucket panel-wide). */
  const limit = (name: string, perMinute: number) => async (req: FastifyRequest) => {
    const hit = await ctx.authThrottle.hit(`${name}:${limiterSource(req.ip)}`, 60_000);
    if (hit.hits > perMinute) throw errors.tooManyRequests(hit.retryAfter, perMinute);
  };

  /** Already signed in: the guest-only routes answer with a redirect home, as the original does. */
  const guest = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (req.session?.userId) return reply.redirect('/');
  };

  const finishLogin = async (req: FastifyRequest, result: LoginResult) => {
    if (!result.complete) {
      await services.sessions.saveData(ensureSession(req, services.sessions), meta(req));
      return { data: { complete: false, confirmation_token: result.confirmationToken } };
    }
    req.session = await services.sessions.rotate(req.session, result.user.id, meta(req));
    return { data: { complete: true, intended: '/', user: userBootstrap(result.user) } };
  };

  app.get('/sanctum/csrf-cookie', async (req, reply) => {
    ensureSession(req, services.sessions);
    return reply.code(204).send();
  });

  app.post('/auth/login', { preHandler: [guest, limit('auth.login', 10)] }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    await verifyRecaptcha(
      (await services.settings.effective()).recaptcha,
      body['g-recaptcha-response'],
      req.ip,
    );
    const session = ensureSession(req, services.sessions);
    return finishLogin(req, await services.auth.login(body, session, meta(req)));
  });

  app.post('/auth/login/checkpoint', { preHandler: [guest, limit('auth.login', 10)] }, async (req) => {
    const session = ensureSession(req, services.sessions);
    const result = await services.auth.checkpoint(
      (req.body ?? {}) as Record<string, unknown>,
      session,
      meta(req),
    );
    return finishLogin(req, result);
  });

  app.post('/auth/password', { preHandler: [guest, limit('auth.password', 2)] }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    await verifyRecaptcha(
      (await services.settings.effective()).recaptcha,
      body['g-recaptcha-response'],
      req.ip,
    );
    await services.auth.requestReset(body);
    return { status: 'We have e-mailed your password reset link!' };
  });

  app.post('/auth/password/reset', { preHandler: [guest] }, async (req) => {
    const user = await services.auth.reset((req.body ?? {}) as Record<string, unknown>);
    await services.sessions.endOtherSessions(user.id, null);
    const sendToLogin = user.use_totp === 1;
    if (!sendToLogin) req.session = await services.sessions.rotate(req.session, user.id, meta(req));
    return { success: true, redirect_to: '/', send_to_login: sendToLogin };
  });

  app.post('/auth/logout', async (req, reply) => {
    if (!req.session?.userId) throw errors.unauthenticated();
    await services.sessions.destroy(req.session);
    req.session = services.sessions.guest();
    return reply.code(204).send();
  });
}
