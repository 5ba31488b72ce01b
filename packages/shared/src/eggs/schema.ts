/**
 * zod schemas for egg files, PTDL_v2 and PTDL_v1. They accept what real exports contain (nulls for
 * empty texts, 0/1 for booleans in old files, JSON-in-string config) and transform to the parts of
 * `NormalizedEgg`. Problems that span several fields (unique names, a v1 file without any image)
 * are checked in `parse.ts`, which sees the whole file.
 */
import { z } from 'zod';
import { eggConfigSchema } from './config.ts';
import {
  IMAGE_REFERENCE,
  IMAGE_REFERENCE_MESSAGE,
  INSTALL_ENTRYPOINT_MESSAGE,
  installInterpreter,
} from './install-entrypoint.ts';
import { readVariableRules } from './variable-rules.ts';
import { forbiddenEnvironmentMessage } from './host-environment.ts';
import type { EggFormat, EggVariable } from './types.ts';

/** Names the daemon sets itself for every server; an egg variable may not shadow them. */
export const RESERVED_ENV_NAMES = [
  'SERVER_MEMORY',
  'SERVER_IP',
  'SERVER_PORT',
  'ENV',
  'HOME',
  'USER',
  'STARTUP',
  'SERVER_UUID',
  'UUID',
] as const;

const optionalText = z
  .string()
  .nullish()
  .transform((s) => s ?? '');

/** Old exports wrote booleans as 0/1. */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'must be true or false' })
  .transform((v) => v === true || v === 1);

const stringList = z
  .array(z.string())
  .nullish()
  .transform((l) => l ?? []);

const envVariable = z
  .string()
  .min(1)
  .max(191)
  .regex(/^\w+$/u, 'must be letters, digits and underscores')
  .superRefine((name, ctx) => {
    if ((RESERVED_ENV_NAMES as readonly string[]).includes(name.toUpperCase()))
      ctx.addIssue({ code: 'custom', message: `"${name}" is reserved: the daemon sets it for every server` });
    else {
      const forbidden = forbiddenEnvironmentMessage(name);
      if (forbidden) ctx.addIssue({ code: 'custom', message: forbidden });
    }
  });

/** `|` string (PTDL) or list/object of rules (Pelican), stored as one canonical `|` string. */
const rules = z.unknown().transform((value, ctx): string => {
  const read = readVariableRules(value);
  for (const problem of read.problems) ctx.addIssue({ code: 'custom', message: problem });
  return read.rules;
});

type Version = EggFormat;

function variableSchema(version: Version) {
  return z
    .object({
      name: z.string().min(1).max(191),
      description: optionalText,
      env_variable: envVariable,
      default_value: z
        .union([z.string(), z.number(), z.boolean(), z.null()], { error: 'must be a string' })
        .optional()
        .transform((v) => (v == null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))),
      user_viewable: flag,
      user_editable: flag,
      rules,
      // PTDL_v1 had no field types and Pelican's are free-form; the panel treats every variable as text.
      field_type: version === 'PTDL_v2' ? z.literal('text').optional() : z.unknown().optional(),
      sort: z.number().int().nullish(),
    })
    .transform((v): EggVariable => ({
      name: v.name,
      description: v.description,
      envVariable: v.env_variable,
      defaultValue: v.default_value,
      userViewable: v.user_viewable,
      userEditable: v.user_editable,
      rules: v.rules,
      fieldType: 'text',
      sort: v.sort ?? null,
    }));
}

/** `[]`, `""` (seen in published files) or a list: an empty string is an empty list. */
const denylist = z
  .union([z.array(z.string()), z.string(), z.null()], { error: 'must be a list of patterns' })
  .optional()
  .transform((l) => (typeof l === 'string' ? l.split('\n') : (l ?? [])).filter((p) => p.trim() !== ''));

const common = {
  uuid: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu, 'must be a UUID')
    .nullish()
    .transform((u) => u?.toLowerCase() ?? null),
  tags: stringList,
  name: z.string().min(1).max(191),
  author: z.string().max(191).regex(/^[^\s@]+@[^\s@]+$/u, 'must be an email address'),
  description: optionalText,
  features: stringList,
  file_denylist: denylist,
  startup: z.string().min(1).optional(),
  startup_commands: z
    .record(z.string().min(1), z.string().min(1))
    .optional()
    .refine((c) => c === undefined || Object.keys(c).length > 0, 'must name at least one command'),
  config: eggConfigSchema,
  scripts: z.object({
    installation: z.object({
      // Kept byte for byte (CRLF too): the daemon normalises line endings only when it runs it.
      script: optionalText,
      // Both end up in the daemon's hands: only known shells and plain image references pass.
      // 191: the panel's column (PostgreSQL refuses longer text; the reference's limit too).
      container: z.string().min(1).max(191).regex(IMAGE_REFERENCE, IMAGE_REFERENCE_MESSAGE),
      entrypoint: z
        .string()
        .min(1)
        .refine((e) => installInterpreter(e) !== null, INSTALL_ENTRYPOINT_MESSAGE),
    }),
  }),
};

const meta = (version: string) =>
  z.object({
    version: z.literal(version),
    update_url: z
      .string()
      .nullish()
      .transform((u) => u ?? null),
  });

const variables = (version: Version) =>
  z
    .array(variableSchema(version))
    .nullish()
    .transform((v) => v ?? []);

/** `docker_images` as label → image, or (seen in published files) a list where each image names itself. */
const dockerImages = z.preprocess(
  (v) =>
    Array.isArray(v) && v.every((i) => typeof i === 'string' && i !== '')
      ? Object.fromEntries(v.map((i: string) => [i, i]))
      : v,
  z
    .record(z.string(), z.string().min(1))
    .refine((images) => Object.keys(images).length > 0, 'must list at least one image'),
);

function buildEggSchema(version: Exclude<Version, 'PTDL_v1'>) {
  return z.object({
    ...common,
    meta: meta(version),
    docker_images: dockerImages,
    variables: variables(version),
  });
}

const built = new Map<Version, ReturnType<typeof buildEggSchema>>();

/**
 * Every format but PTDL_v1: they differ in what they carry, not in how a field is written. Built
 * once per format (building a schema costs more than using it).
 */
export function eggSchema(version: Exclude<Version, 'PTDL_v1'>) {
  let schema = built.get(version);
  if (!schema) built.set(version, (schema = buildEggSchema(version)));
  return schema;
}

export const eggV2Schema = eggSchema('PTDL_v2');

export const eggV1Schema = z.object({
  ...common,
  meta: meta('PTDL_v1'),
  image: z.string().min(1).optional(),
  images: z.array(z.string().min(1)).optional(),
  variables: variables('PTDL_v1'),
});
