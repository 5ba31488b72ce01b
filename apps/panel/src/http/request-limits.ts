import type { Server } from 'node:http';
import { MAX_HEADER_BYTES, MAX_JSON_DEPTH, clientErrorHandler } from '@talon/shared/http-limits';
import type { FastifyHttpOptions } from 'fastify';
import { body } from './error-handler.ts';
import { HttpError } from './errors.ts';

const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'BadRequestHttpException',
  408: 'RequestTimeoutHttpException',
  431: 'RequestHeaderFieldsTooLargeHttpException',
};

/**
 * Options for the panel's Fastify instance: the header size limit, and Pterodactyl's error body
 * for requests Node refuses before any route (431 for oversized headers).
 */
export const serverLimits = {
  http: { maxHeaderSize: MAX_HEADER_BYTES },
  clientErrorHandler: clientErrorHandler((status, message) =>
    body(status, CLIENT_ERROR_CODES[status] ?? 'HttpException', message),
  ),
} satisfies FastifyHttpOptions<Server>;

/** The 400 for a JSON body nested deeper than `MAX_JSON_DEPTH` (checked before parsing). */
export function jsonTooDeepError(): HttpError {
  return new HttpError(
    400,
    'BadRequestHttpException',
    `The JSON in the request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
  );
}
