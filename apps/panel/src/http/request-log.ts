import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets somewhere in the API (the two-factor disable sends the
 * password in the query string; reset links, download links and signed URLs carry tokens). Matched
 * on the lower-cased name.
 */
const SECRET_PARAM = /pass|token|code|secret|signature|key|auth|otp/u;
/** Paths with a secret segment: the password-reset link's token, a node setup token. */
const SECRET_PATH = /^(\/auth\/password\/reset\/|\/api\/remote\/node-setup\/)[^/?#]+/u;
const REDACTED = '[redacted]';

/** The request URL as it may be logged: path and parameter names kept, secret values replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(SECRET_PATH, `$1${REDACTED}`);
  if (q === -1) return path;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/gu, ' '));
      } catch {
        // A malformed name is judged as sent.
      }
      return SECRET_PARAM.test(name.toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${path}?${params.join('&')}`;
}

/** Fastify's request serializer, with the URL redacted and no headers (Authorization, Cookie). */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket.remotePort,
  };
}

/** Header paths pino blanks wherever a log call passes a request or headers along. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
];
