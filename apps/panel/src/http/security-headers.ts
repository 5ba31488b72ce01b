import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';

const RECAPTCHA_SCRIPTS = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAMES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];
// Google Analytics 4 (gtag.js): the tag script, then beacons by fetch and image.
const ANALYTICS_SCRIPTS = ['https://www.googletagmanager.com'];
const ANALYTICS_BEACONS = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://*.googletagmanager.com',
];
/** Host names as a node's FQDN may be written; anything else could smuggle in a directive. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/u;

/**
 * Headers on every answer: no framing, no MIME sniffing, origin-only referrers to other sites, no
 * cross-origin embedding, HSTS when the panel is served over https, and a policy that loads
 * nothing, for API answers and files. HTML pages replace that policy with `pagePolicy` and add
 * {@link DOCUMENT_HEADERS}.
 *
 * The set is fixed, so it is built once and added with one call per answer. Each header costs every
 * API answer (helmet's middlewares halved the API's throughput, and its full set cost the resources
 * route a fifth more): headers that only matter for a document a browser renders are sent with the
 * page alone (docs/benchmarks.md).
 */
/** Where avatar pictures come from: the API links to gravatar.com, which may send the browser on to www. */
const GRAVATAR = ['https://gravatar.com', 'https://www.gravatar.com'];

export function securityHeaders(opts: { https: boolean }): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // The panel's own host only: its parent domain may serve other sites still on http.
    ...(opts.https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/** What only a rendered page needs: its own browsing context group and process, no DNS prefetch. */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
};

export function registerSecurityHeaders(app: FastifyInstance, opts: { https: boolean }): void {
  const headers = securityHeaders(opts);
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  app.addHook('onRequest', (req, reply, done) => {
    // API answers carry fresh keys, setup tokens, node secrets and personal data: no cache, shared
    // or private, may keep them. Pages and assets set their own caching.
    reply.headers(req.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
}

export interface PageSources {
  /** the nonce of the page's one inline script (the bootstrap data) */
  nonce: string;
  /** `scheme://host:port` of every node's daemon (console websocket, uploads, downloads) */
  daemonOrigins: string[];
  recaptcha: boolean;
  analytics: boolean;
  /** Gravatar pictures allowed (the admin's setting); otherwise no image comes from there. */
  remoteAvatars: boolean;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The Content-Security-Policy of the web app's HTML shell: what the app loads and nothing else. */
export function pagePolicy(src: PageSources): string {
  const daemons = src.daemonOrigins.flatMap((o) => [o, o.replace(/^http/u, 'ws')]);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      `'nonce-${src.nonce}'`,
      ...(src.recaptcha ? RECAPTCHA_SCRIPTS : []),
      ...(src.analytics ? ANALYTICS_SCRIPTS : []),
    ],
    // xterm.js and CodeMirror add <style> elements at run time, without a nonce (e2e/csp.e2e.ts sees
    // style-src-elem violations in the server area without 'unsafe-inline'); also React style attributes.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for inline SVG icons; Gravatar only when an admin turned remote avatars on.
    'img-src': [
      "'self'",
      'data:',
      ...(src.remoteAvatars ? GRAVATAR : []),
      ...(src.analytics ? ANALYTICS_BEACONS : []),
    ],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...daemons, ...(src.analytics ? ANALYTICS_BEACONS : [])],
    'frame-src': src.recaptcha ? RECAPTCHA_FRAMES : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** The daemon origins the browser talks to, as `servers.service` hands them out (nodeUrl). */
export async function daemonOrigins(db: Kysely<Database>): Promise<string[]> {
  const nodes = await db.selectFrom('nodes').select(['scheme', 'fqdn', 'daemon_listen']).execute();
  const origins = nodes
    .filter((n) => (n.scheme === 'http' || n.scheme === 'https') && HOST.test(n.fqdn))
    .map((n) => `${n.scheme}://${n.fqdn}:${Number(n.daemon_listen)}`);
  return [...new Set(origins)];
}
