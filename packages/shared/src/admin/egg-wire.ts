import { z } from 'zod';

/**
 * The application API's nests and eggs as the admin screens read and write them (reference §5.7 plus
 * our extensions, docs/api.md "Nests and eggs").
 */

/** `{ object: 'nest', attributes }`. */
export const adminNestSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  author: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminNest = z.infer<typeof adminNestSchema>;

/** `{ object: 'egg', attributes }`: config sections decoded (objects), as the reference presents them. */
export const adminEggSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  nest: z.number().int(),
  author: z.string(),
  description: z.string().nullable(),
  docker_image: z.string(),
  docker_images: z.record(z.string(), z.string()),
  config: z.object({
    files: z.unknown(),
    startup: z.unknown(),
    stop: z.string().nullable(),
    logs: z.unknown(),
    file_denylist: z.array(z.string()).nullable(),
    extends: z.number().int().nullable(),
  }),
  startup: z.string(),
  script: z.object({
    privileged: z.boolean(),
    install: z.string().nullable(),
    entry: z.string(),
    container: z.string(),
    extends: z.number().int().nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminEgg = z.infer<typeof adminEggSchema>;

/** `{ object: 'egg_variable', attributes }`. */
export const adminEggVariableSchema = z.object({
  id: z.number().int(),
  egg_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  env_variable: z.string(),
  default_value: z.string(),
  user_viewable: z.boolean(),
  user_editable: z.boolean(),
  /** canonical `|` string, e.g. `required|integer|between:1,100` */
  rules: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminEggVariable = z.infer<typeof adminEggVariableSchema>;

/** `meta` of `POST …/eggs/import`: what the import did and what it accepted leniently. */
export const eggImportMetaSchema = z.object({
  action: z.enum(['imported', 'updated']),
  matched: z.object({ id: z.number().int(), name: z.string(), by: z.enum(['uuid', 'name']) }).nullable(),
  warnings: z.array(z.string()),
});
export type EggImportMeta = z.infer<typeof eggImportMetaSchema>;

/** `POST /api/application/nests`, `PATCH …/nests/{nest}`. */
export interface NestBody {
  name: string;
  description?: string | null;
}

/**
 * `PATCH …/nests/{nest}/eggs/{egg}`: every field optional; the ones given replace the stored ones.
 * Config sections may be objects or JSON text. A 422's `source_field` is the field's dotted path
 * here (`config.files["server.properties"].parser`, `script.entry`).
 */
export interface EggUpdateBody {
  name?: string;
  description?: string | null;
  docker_images?: Record<string, string>;
  startup?: string;
  config?: {
    files?: unknown;
    startup?: unknown;
    logs?: unknown;
    stop?: string;
    file_denylist?: string[];
  };
  script?: { install?: string; entry?: string; container?: string; privileged?: boolean };
}

/** `POST …/variables` (name and env_variable required) and `PATCH …/variables/{variable}` (partial). */
export interface EggVariableBody {
  name?: string;
  description?: string | null;
  env_variable?: string;
  default_value?: string | null;
  user_viewable?: boolean;
  user_editable?: boolean;
  /** a `|` string or a list of rules; stored in canonical form */
  rules?: string | string[] | null;
}

/** `POST …/nests/{nest}/eggs/import`: the file's text (JSON or YAML) or its decoded object. */
export interface EggImportBody {
  egg: string | Record<string, unknown>;
}
