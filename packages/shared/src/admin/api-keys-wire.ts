import { z } from 'zod';

/** The resources an application API key is given rights on, by their wire names. */
export const APPLICATION_KEY_RESOURCES = [
  'users',
  'nodes',
  'allocations',
  'locations',
  'nests',
  'eggs',
  'servers',
  'database_hosts',
  'server_databases',
] as const;
export type ApplicationKeyResource = (typeof APPLICATION_KEY_RESOURCES)[number];

/** A right on one resource: 0 none, 1 read, 3 read and write. */
export const APPLICATION_KEY_RIGHTS = [0, 1, 3] as const;
export type ApplicationKeyRight = (typeof APPLICATION_KEY_RIGHTS)[number];

const right = z.union([z.literal(0), z.literal(1), z.literal(3)]);

export const applicationKeyPermissionsSchema = z.object(
  Object.fromEntries(APPLICATION_KEY_RESOURCES.map((r) => [r, right])) as Record<
    ApplicationKeyResource,
    typeof right
  >,
);
export type ApplicationKeyPermissions = z.infer<typeof applicationKeyPermissionsSchema>;

/** An `api_key` of `GET/POST /api/application/api-keys`: never its secret. */
export const applicationApiKeySchema = z.object({
  identifier: z.string(),
  description: z.string(),
  allowed_ips: z.array(z.string()),
  permissions: applicationKeyPermissionsSchema,
  /** ISO 8601 with offset, or null. */
  last_used_at: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type ApplicationApiKey = z.infer<typeof applicationApiKeySchema>;

/** The POST body. */
export interface ApplicationApiKeyCreate {
  description: string;
  allowed_ips?: string[];
  permissions: Partial<ApplicationKeyPermissions>;
}

/** The POST answer: the key and, this once, the whole token (`ptla_…`). */
export const createdApplicationApiKeySchema = z.object({
  object: z.literal('api_key'),
  attributes: applicationApiKeySchema,
  meta: z.object({ secret_token: z.string() }),
});
export type CreatedApplicationApiKey = z.infer<typeof createdApplicationApiKeySchema>;
