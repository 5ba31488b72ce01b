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
import { checkVariableRules } from './variable-rules.ts';
import type { EggVariable } from './types.ts';

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
  });

const rules = optionalText.superRefine((value, ctx) => {
  for (const problem of checkVariableRules(value)) ctx.addIssue({ code: 'custom', message: problem });
});

function variableSchema(version: 'PTDL_v1' | 'PTDL_v2') {
  return z
    .object({
      name: z.string().min(1).max(191),
      description: optionalText,
      env_variable: envVariable,
      default_value: z
        .union([z.string(), z.number(), z.null()], { error: 'must be a string' })
        .optional()
        .transform((v) => (v == null ? '' : String(v))),
      user_viewable: flag,
      user_editable: flag,
      rules,
      // PTDL_v1 had no field types; the panel treats every variable as text.
      field_type: version === 'PTDL_v2' ? z.literal('text').optional() : z.unknown().optional(),
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
    }));
}

const common = {
  name: z.string().min(1).max(191),
  author: z.string().regex(/^[^\s@]+@[^\s@]+$/u, 'must be an email address'),
  description: optionalText,
  features: stringList,
  file_denylist: stringList.transform((l) => l.filter((p) => p.trim() !== '')),
  startup: z.string().min(1),
  config: eggConfigSchema,
  scripts: z.object({
    installation: z.object({
      script: optionalText.transform((s) => s.replace(/\r\n/gu, '\n')),
      // Both end up in the daemon's hands: only known shells and plain image references pass.
      container: z.string().min(1).max(255).regex(IMAGE_REFERENCE, IMAGE_REFERENCE_MESSAGE),
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

export const eggV2Schema = z.object({
  ...common,
  meta: meta('PTDL_v2'),
  docker_images: z
    .record(z.string(), z.string().min(1))
    .refine((images) => Object.keys(images).length > 0, 'must list at least one image'),
  variables: z
    .array(variableSchema('PTDL_v2'))
    .nullish()
    .transform((v) => v ?? []),
});

export const eggV1Schema = z.object({
  ...common,
  meta: meta('PTDL_v1'),
  image: z.string().min(1).optional(),
  images: z.array(z.string().min(1)).optional(),
  variables: z
    .array(variableSchema('PTDL_v1'))
    .nullish()
    .transform((v) => v ?? []),
});
