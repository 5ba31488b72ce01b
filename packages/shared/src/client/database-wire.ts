import { z } from 'zod';

/**
 * Wire shapes of databases for game servers: the client `server_database` (reference §3.1, §3.3
 * "Databases") and the application `database_host` / `server_database` (§5.1, §5.6). The panel
 * builds them; the web app and tests parse them.
 */

const nullResource = z.object({ object: z.literal('null_resource'), attributes: z.null() });

/** The `password` include: the password, or a null resource without `database.view_password`. */
export const databasePasswordItemSchema = z.object({
  object: z.literal('database_password'),
  attributes: z.object({ password: z.string() }),
});
export const databasePasswordRelationshipSchema = z.union([databasePasswordItemSchema, nullResource]);

/** Client `server_database` attributes. `id` is the Hashids string of the row id. */
export const clientServerDatabaseSchema = z.object({
  id: z.string(),
  host: z.object({ address: z.string(), port: z.number() }),
  /** The real database name, always `s<server id>_…`. */
  name: z.string(),
  username: z.string(),
  /** The `remote` pattern, e.g. `%`. */
  connections_from: z.string(),
  max_connections: z.number().nullable(),
  relationships: z.object({ password: databasePasswordRelationshipSchema }).optional(),
});
export type ClientServerDatabase = z.infer<typeof clientServerDatabaseSchema>;

export const clientServerDatabaseItemSchema = z.object({
  object: z.literal('server_database'),
  attributes: clientServerDatabaseSchema,
});
/** Answer of `POST …/databases` and `POST …/databases/{database}/rotate-password`. */
export type ClientServerDatabaseItem = z.infer<typeof clientServerDatabaseItemSchema>;
export const clientServerDatabaseRotateSchema = clientServerDatabaseItemSchema;

/** Answer of `GET …/databases`. */
export const clientServerDatabaseListSchema = z.object({
  object: z.literal('list'),
  data: z.array(clientServerDatabaseItemSchema),
});
export type ClientServerDatabaseList = z.infer<typeof clientServerDatabaseListSchema>;

/** Body of `POST …/databases`. */
export const clientDatabaseCreateBodySchema = z.object({
  database: z.string(),
  /** Connections from; the web form defaults it to `%`. */
  remote: z.string(),
});
export type ClientDatabaseCreateBody = z.infer<typeof clientDatabaseCreateBodySchema>;

/** Engines a database host can run: `mysql` (MySQL 8, MariaDB 10.6+), `postgresql` (our extension). */
export const DATABASE_ENGINES = ['mysql', 'postgresql'] as const;
export const databaseEngineSchema = z.enum(DATABASE_ENGINES);
export type DatabaseEngine = z.infer<typeof databaseEngineSchema>;

/**
 * Application `database_host` (Pelican-compatible shape; `engine` is ours). `node` is the
 * reference's single node (the first of `node_ids`, or null). The password is never returned.
 */
export const applicationDatabaseHostSchema = z.object({
  id: z.number(),
  name: z.string(),
  engine: databaseEngineSchema,
  host: z.string(),
  port: z.number(),
  username: z.string(),
  max_databases: z.number().nullable(),
  node: z.number().nullable(),
  node_ids: z.array(z.number()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ApplicationDatabaseHost = z.infer<typeof applicationDatabaseHostSchema>;

/** Body of `POST /api/application/database-hosts`. */
export const applicationDatabaseHostCreateBodySchema = z.object({
  name: z.string(),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  password: z.string(),
  engine: databaseEngineSchema.optional(),
  max_databases: z.number().nullable().optional(),
  node_ids: z.array(z.number()).optional(),
});
export type ApplicationDatabaseHostCreateBody = z.infer<typeof applicationDatabaseHostCreateBodySchema>;

/**
 * Body of `PATCH /api/application/database-hosts/{id}`: the same required fields (a full
 * replacement, like the reference's updates), but `password` may be left out to keep the stored one.
 */
export const applicationDatabaseHostUpdateBodySchema = applicationDatabaseHostCreateBodySchema.extend({
  password: z.string().optional(),
});
export type ApplicationDatabaseHostUpdateBody = z.infer<typeof applicationDatabaseHostUpdateBodySchema>;

/** Application `server_database` (§5.1). */
export const applicationServerDatabaseSchema = z.object({
  id: z.number(),
  server: z.number(),
  host: z.number(),
  database: z.string(),
  username: z.string(),
  remote: z.string(),
  max_connections: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  relationships: z.record(z.string(), z.unknown()).optional(),
});
export type ApplicationServerDatabase = z.infer<typeof applicationServerDatabaseSchema>;

/** Body of `POST /api/application/servers/{id}/databases` (§5.6). */
export const applicationServerDatabaseCreateBodySchema = z.object({
  database: z.string(),
  remote: z.string(),
  host: z.number(),
});
export type ApplicationServerDatabaseCreateBody = z.infer<typeof applicationServerDatabaseCreateBodySchema>;
