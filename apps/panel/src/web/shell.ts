import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from '../context.ts';
import { twoFactorRequiredFor } from '../http/api-auth.ts';
import type { RouteMiss } from '../http/error-handler.ts';
import { errors } from '../http/errors.ts';
import { DOCUMENT_HEADERS, daemonOrigins, newNonce, pagePolicy } from '../http/security-headers.ts';
import { ensureSession } from '../http/session.ts';
import { userBootstrap } from '../modules/users/users.presenter.ts';
import { templateFile } from './template.ts';

const WEB_ROOT = path.resolve(import.meta.dirname, '../../../web');
const PLACEHOLDER = '<!-- talon:bootstrap -->';

const JSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON that can sit inside a <script> element: `<` could close the element or open a comment, and
 * U+2028/2029 end a line in older JavaScript parsers. Escaped, the values read back as typed.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/gu, (c) => JSON_ESCAPES[c] ?? c);
}

/** Every `<language>/<namespace>.json` of the web app's translations, by language then namespace. */
function localeCatalogue(root: string): Map<string, Map<string, Buffer>> {
  const catalogue = new Map<string, Map<string, Buffer>>();
  if (!existsSync(root)) return catalogue;
  for (const lng of readdirSync(root, { withFileTypes: true })) {
    if (!lng.isDirectory()) continue;
    const namespaces = new Map<string, Buffer>();
    for (const file of readdirSync(path.join(root, lng.name), { withFileTypes: true })) {
      if (file.isFile() && file.name.endsWith('.json'))
        namespaces.set(
          file.name.slice(0, -'.json'.length),
          readFileSync(path.join(root, lng.name, file.name)),
        );
    }
    catalogue.set(lng.name, namespaces);
  }
  return catalogue;
}

/** Text for HTML element content and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Serves the built web app: static assets, translation files, and the HTML shell for every page
 * route with the site configuration and the signed-in user injected (reference §6.2).
 */
export async function webRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  routeMiss: RouteMiss,
  webDist = path.join(WEB_ROOT, 'dist'),
) {
  const { config, services, repositories } = ctx;
  const indexFile = path.join(webDist, 'index.html');
  const loadTemplate = templateFile(
    indexFile,
    `<!doctype html><html><head><meta charset="utf-8">${PLACEHOLDER}</head><body><div id="app">The web app is not built yet: run <code>npm run build</code>.</div></body></html>`,
  );

  // Registered even before the first build, and without a fixed file list (wildcard routing looks
  // each request up on disk), so the hashed assets of a later build are served without a restart.
  await app.register(fastifyStatic, {
    root: path.join(webDist, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    decorateReply: false,
    wildcard: true,
  });

  // Translations come from a fixed catalogue read once here: a request's language and namespace
  // are looked up in it and never become part of a path (CVE-2025-49132).
  const locales = localeCatalogue(path.join(WEB_ROOT, 'locales'));
  app.get<{ Params: { lng: string; ns: string } }>('/locales/:lng/:ns', async (req, reply) => {
    const ns = /^(.+)\.json$/u.exec(req.params.ns)?.[1];
    const file = ns === undefined ? undefined : locales.get(req.params.lng)?.get(ns);
    if (!file) throw errors.notFound();
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(file);
  });

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const session = ensureSession(req, services.sessions);
    const user = session.userId ? await repositories.users.findById(session.userId) : undefined;
    const pathname = req.url.split('?')[0] ?? '/';
    if (user && pathname.startsWith('/auth/')) return reply.redirect('/');
    if (user && pathname !== '/account' && twoFactorRequiredFor(user, await ctx.twoFactorLevel())) {
      return reply.redirect('/account');
    }
    // The settings in effect (environment, else the admin's Settings screen), not only config.ts.
    const settings = await services.settings.effective();
    const site = {
      name: settings.appName,
      locale: 'en',
      recaptcha: { enabled: settings.recaptcha.enabled, siteKey: settings.recaptcha.siteKey },
      ...(config.analyticsId ? { analytics: config.analyticsId } : {}),
      // Lets the web offer "Create Allocation" only where the panel would not refuse it.
      clientAllocations: { enabled: settings.clientAllocations.enabled },
      // Off: the web shows initials and never asks the avatar service (issue 24).
      remoteAvatars: settings.remoteAvatars,
    };
    const nonce = newNonce();
    const head = [
      `<meta name="csrf-token" content="${escapeHtml(session.csrfToken)}">`,
      `<title>${escapeHtml(settings.appName)}</title>`,
      `<script nonce="${nonce}">window.SiteConfiguration = ${scriptJson(site)};${
        user ? `window.PterodactylUser = ${scriptJson(userBootstrap(user))};` : ''
      }</script>`,
    ].join('');
    const policy = pagePolicy({
      nonce,
      daemonOrigins: await daemonOrigins(ctx.db.db),
      recaptcha: settings.recaptcha.enabled,
      analytics: Boolean(config.analyticsId),
      remoteAvatars: settings.remoteAvatars,
    });
    return (
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .headers(DOCUMENT_HEADERS)
        .header('content-security-policy', policy)
        // A function, not a string: `$'`, `$&`… in a name are replacement patterns in a string.
        .send((await loadTemplate()).replace(PLACEHOLDER, () => head))
    );
  };

  app.get('/', page);
  app.get('/*', async (req, reply) => {
    const first = (req.url.split('?')[0] ?? '').split('/')[1] ?? '';
    // A GET on a path known for other methods only (a POST-only API route) is 405, as for the other
    // methods; anything else there is 404.
    if (['api', 'daemon', 'assets', 'locales'].includes(first)) throw routeMiss(req.method, req.url);
    return page(req, reply);
  });
}
