import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, ValidationFailed } from './errors.ts';

const STATUS_CODES: Record<number, string> = {
  400: 'BadRequestHttpException',
  401: 'UnauthorizedHttpException',
  403: 'AccessDeniedHttpException',
  404: 'NotFoundHttpException',
  405: 'MethodNotAllowedHttpException',
  413: 'PayloadTooLargeHttpException',
  415: 'UnsupportedMediaTypeHttpException',
  429: 'ThrottleRequestsException',
};

export const UNEXPECTED =
  'An unexpected error was encountered while processing this request, please try again.';

/** Answers a request no route took: 405 with `Allow` when the path exists for other methods, else 404. */
export type RouteMiss = (method: string, url: string) => HttpError;

/**
 * Renders every failure in the Pterodactyl error body (reference §1.8). Returns the route-miss
 * answer, for scopes that catch unknown paths themselves (after their authentication).
 */
export function registerErrorHandling(app: FastifyInstance): RouteMiss {
  const patterns: { method: string; re: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    // Catch-alls (the web app's, the application scope's) would match every path below them.
    if (route.url.endsWith('/*')) return;
    const source = route.url
      .replace(/[.+?^${}()|[\]\\]/gu, '\\$&')
      .replace(/:[^/]+/gu, '[^/]+')
      .replace(/\*/gu, '.*');
    for (const method of [route.method].flat()) patterns.push({ method, re: new RegExp(`^${source}$`, 'u') });
  });

  const miss: RouteMiss = (method, url) => {
    const pathname = url.split('?')[0] ?? '/';
    // Routes answer with or without a trailing slash (app.ts), so a 405 does too.
    const route = pathname.length > 1 ? pathname.replace(/\/$/u, '') : pathname;
    const allowed = [...new Set(patterns.filter((p) => p.re.test(route)).map((p) => p.method))];
    if (allowed.length > 0) {
      return new HttpError(
        405,
        'MethodNotAllowedHttpException',
        `The ${method} method is not supported for route ${pathname.slice(1)}. Supported methods: ${allowed.join(', ')}.`,
        { allow: allowed.join(', ') },
      );
    }
    return new HttpError(404, 'NotFoundHttpException', `The route ${pathname.slice(1)} could not be found.`);
  };

  app.setNotFoundHandler(async (req, reply) => {
    const err = miss(req.method, req.url);
    return reply
      .code(err.status)
      .headers(err.headers)
      .send(body(err.status, err.code, err.detail));
  });

  app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
    if (err instanceof ValidationFailed) {
      return reply
        .code(err.status)
        .headers(err.headers)
        .send({
          errors: err.failures.map((f) => ({
            code: 'ValidationException',
            // Always "422", also on the 429 of the sign-in lockout (reference §1.8).
            status: '422',
            detail: f.detail,
            meta: { source_field: f.field, rule: f.rule },
          })),
        });
    }
    if (err instanceof HttpError) {
      return reply
        .code(err.status)
        .headers(err.headers)
        .send(body(err.status, err.code, err.detail));
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send(body(status, STATUS_CODES[status] ?? 'HttpException', err.message));
    }
    req.log.error({ err }, 'unexpected error');
    // The class of an unexpected error (SqliteError, TypeError…) tells an attacker about the insides;
    // it stays in the log.
    return reply.code(500).send(body(500, 'HttpException', UNEXPECTED));
  });
  return miss;
}

export function body(status: number, code: string, detail: string) {
  return { errors: [{ code, status: String(status), detail }] };
}
