import type { Path } from 'react-hook-form';
import { z } from 'zod';
import type { AdminServer, ServerBuildBody } from '../../../../api/application/servers.ts';

/**
 * PATCH …/build rules (reference §5.5, nested `limits` shape), checked before sending; the API's
 * 422s land on the same fields, which carry the wire names (`limits.memory`…).
 */
const THREADS = /^[0-9-,]+$/u;
const WHOLE = /^-?\d+$/u;

function whole(label: string, min: number, max?: number) {
  return z
    .string()
    .trim()
    .min(1, `Enter the ${label}.`)
    .refine((v) => WHOLE.test(v), `The ${label} must be a whole number.`)
    .refine((v) => Number(v) >= min && (max === undefined || Number(v) <= max), {
      message:
        max === undefined
          ? `The ${label} must be at least ${min}.`
          : `The ${label} must be between ${min} and ${max}.`,
    });
}

/** Empty means "no limit set" (null on the wire). */
function optionalWhole(label: string) {
  return z
    .string()
    .trim()
    .refine(
      (v) => v === '' || (WHOLE.test(v) && Number(v) >= 0),
      `The ${label} must be a whole number of at least 0.`,
    );
}

export const buildSchema = z
  .object({
    limits: z.object({
      memory: whole('memory limit', 0),
      swap: whole('swap limit', -1),
      disk: whole('disk limit', 0),
      io: whole('block IO weight', 10, 1000),
      cpu: whole('CPU limit', 0),
      threads: z
        .string()
        .trim()
        .refine((v) => v === '' || THREADS.test(v), 'Threads are numbers, commas and dashes, like 0-1,3.'),
    }),
    oom_killer: z.boolean(),
    feature_limits: z.object({
      databases: optionalWhole('database limit'),
      allocations: optionalWhole('address limit'),
      backups: whole('backup limit', 0),
    }),
    allocation: z.string().min(1, 'Choose the primary address.'),
    add_allocations: z.array(z.string()),
    remove_allocations: z.array(z.string()),
  })
  .superRefine((values, ctx) => {
    if (values.allocation !== '' && values.remove_allocations.includes(values.allocation))
      ctx.addIssue({
        code: 'custom',
        path: ['allocation'],
        message: 'Choose a primary address that is not being removed.',
      });
  });

export type BuildValues = z.infer<typeof buildSchema>;

export function toBuildValues(server: AdminServer): BuildValues {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    limits: {
      memory: String(server.limits.memory),
      swap: String(server.limits.swap),
      disk: String(server.limits.disk),
      io: String(server.limits.io),
      cpu: String(server.limits.cpu),
      threads: server.limits.threads ?? '',
    },
    oom_killer: !server.limits.oomDisabled,
    feature_limits: {
      databases: text(server.featureLimits.databases),
      allocations: text(server.featureLimits.allocations),
      backups: String(server.featureLimits.backups ?? 0),
    },
    allocation: String(server.allocationId),
    add_allocations: [],
    remove_allocations: [],
  };
}

export function toBuildBody(values: BuildValues): ServerBuildBody {
  const int = (v: string) => Number.parseInt(v.trim(), 10);
  const nullable = (v: string) => (v.trim() === '' ? null : int(v));
  return {
    allocation: int(values.allocation),
    oom_disabled: !values.oom_killer,
    limits: {
      memory: int(values.limits.memory),
      swap: int(values.limits.swap),
      disk: int(values.limits.disk),
      io: int(values.limits.io),
      cpu: int(values.limits.cpu),
      threads: values.limits.threads.trim() || null,
    },
    feature_limits: {
      databases: nullable(values.feature_limits.databases),
      allocations: nullable(values.feature_limits.allocations),
      backups: int(values.feature_limits.backups),
    },
    add_allocations: values.add_allocations.map(int),
    // An address added and removed in one go is simply not added.
    remove_allocations: values.remove_allocations.map(int),
  };
}

const FIELDS = new Set([
  'limits.memory',
  'limits.swap',
  'limits.disk',
  'limits.io',
  'limits.cpu',
  'limits.threads',
  'feature_limits.databases',
  'feature_limits.allocations',
  'feature_limits.backups',
  'allocation',
]);

/** Which field a 422's `source_field` is about (the legacy top-level names map to `limits.*`). */
export function buildFieldForWire(wire: string): Path<BuildValues> | null {
  if (wire === 'oom_disabled') return 'oom_killer';
  if (['memory', 'swap', 'disk', 'io', 'cpu', 'threads'].includes(wire))
    return `limits.${wire}` as Path<BuildValues>;
  if (/^add_allocations(\.\d+)?$/u.test(wire) || /^remove_allocations(\.\d+)?$/u.test(wire))
    return 'allocation';
  return FIELDS.has(wire) ? (wire as Path<BuildValues>) : null;
}
