import type { FastifyRequest } from 'fastify';
import { errors } from '../../http/errors.ts';

/** `meta.resource` of a created object: the absolute URL of its GET endpoint (reference §5.0). */
export function resourceMeta(req: FastifyRequest, path: string): { resource: string } {
  return { resource: new URL(path, `${req.protocol}://${req.host}`).toString() };
}

/** The largest id of an integer column: larger values name no row (and PostgreSQL refuses them). */
export const MAX_ID = 2_147_483_647;

/** A numeric path id; anything else gets the not-found answer of an unknown record. */
export function pathId(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,9}$/u.test(value)) throw errors.notFound();
  return Number(value);
}
