import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import { MAX_HEADER_BYTES, MAX_JSON_DEPTH, clientErrorHandler, jsonTooDeep } from '@talon/shared/http-limits';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonConfig } from '../config/config.ts';
import { FileError } from '../fs/errors.ts';
import { ServerError } from '../servers/errors.ts';
import { fileErrorReply } from './files-errors.ts';

const CORS_HEADERS = {
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Accept, Accept-Encoding, Authorization, Cache-Control, Content-Type, Content-Length, Origin, X-Real-IP, X-CSRF-Token',
  'Access-Control-Max-Age': '7200',
};

/**
 * Options for the daemon's Fastify instance: the header size limit, and Wings' `{"error": ...}`
 * body for requests Node refuses before any route (431 for oversized headers).
 */
export const serverLimits = {
  http: { maxHeaderSize: MAX_HEADER_BYTES },
  clientErrorHandler: clientErrorHandler((_status, message) => ({ error: message })),
} satisfies FastifyHttpOptions<Server>;

export const UNKNOWN_SERVER = 'The requested resource does not exist on this instance.';

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Wings' behaviour common to every route (protocol §1.3, §2.1): X-Request-Id, CORS answered before
 * authentication, node-token bearer auth, `{"error": ...}` bodies.
 */
export function registerCommon(app: FastifyInstance, config: DaemonConfig): void {
  // JSON is checked for depth before it is parsed: nothing downstream walks a hostile nesting.
  // (Fastify's own parser does the rest, with its prototype-poisoning checks.)
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonTooDeep(body as string)) {
      done(
        new ServerError(
          `The JSON in the request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
          400,
        ),
      );
      return;
    }
    void parseJson(req, body as string, done);
  });

  app.addHook('onRequest', async (req, reply) => {
    void reply.header('X-Request-Id', req.id);
    const origin = req.headers.origin;
    const panel = config.remote.replace(/\/+$/, '');
    const allowed =
      origin &&
      origin !== panel &&
      (config.allowed_origins.includes(origin) || config.allowed_origins.includes('*'))
        ? origin
        : panel;
    void reply.header('Access-Control-Allow-Origin', allowed).headers(CORS_HEADERS);
    if (req.method === 'OPTIONS') return reply.code(204).send();
    // Signed-URL routes (`http/signed-urls.ts`) carry their own credential, a JWT in the query.
    if ((req.routeOptions.config as { signedUrl?: boolean }).signedUrl) return;
    const header = req.headers.authorization ?? '';
    const parts = header.split(' ');
    if (parts.length !== 2 || parts[0] !== 'Bearer') {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer')
        .send({ error: 'The required authorization heads were not present in the request.' });
    }
    if (!tokenMatches(parts[1]!, config.token)) {
      return reply.code(403).send({ error: 'You are not authorized to access this endpoint.' });
    }
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).type('text/plain').send('404 page not found'));

  app.setErrorHandler(
    (err: Error & { statusCode?: number; code?: string }, req: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof ServerError) return reply.code(err.httpStatus).send({ error: err.message });
      if (err instanceof FileError) {
        const { status, error } = fileErrorReply(err);
        return reply.code(status).send({ error });
      }
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply
          .code(413)
          .send({ error: 'The request body is larger than the upload limit of this node.' });
      }
      if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return reply
          .code(400)
          .send({ error: 'The data passed in the request was not in a parsable format. Please try again.' });
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return reply.code(400).send({
          error: 'An error occurred while parsing the request body, please check the request and try again.',
          request_id: req.id,
        });
      }
      req.log.error({ err }, 'request failed');
      return reply.code(500).send({
        error: 'An unexpected error was encountered while processing this request',
        request_id: req.id,
      });
    },
  );
}

export function newRequestId(): string {
  return randomUUID();
}
