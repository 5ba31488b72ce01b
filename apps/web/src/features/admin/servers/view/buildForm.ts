import type { Path } from 'react-hook-form';
import type { AdminServer, ServerBuildBody } from '../../../../api/application/servers.ts';
import { problemsResolver, type FormProblems } from '../../components/problemsResolver.ts';
import {
  LIMIT_FIELDS,
  limitsProblems,
  toLimitsBody,
  toWhole,
  trimAll,
  whole,
  type LimitsText,
} from '../serverRules.ts';

/**
 * PATCH …/build rules (reference §5.5, nested `limits` shape), checked before sending; the API's
 * 422s land on the same fields, which carry the wire names (`limits.memory`…).
 */
const WHOLE = /^-?\d+$/u;

/** Empty means "no limit set" (null on the wire). */
function optionalWhole(text: string, label: string): string | undefined {
  const v = text.trim();
  return v === '' || (WHOLE.test(v) && Number(v) >= 0)
    ? undefined
    : `The ${label} must be a whole number of at least 0.`;
}

export interface BuildValues {
  limits: LimitsText;
  oom_killer: boolean;
  feature_limits: { databases: string; allocations: string; backups: string };
  allocation: string;
  add_allocations: string[];
  remove_allocations: string[];
}

export function buildProblems(v: BuildValues): FormProblems<BuildValues> {
  const problems: FormProblems<BuildValues> = {
    ...limitsProblems(v.limits),
    'feature_limits.databases': optionalWhole(v.feature_limits.databases, 'database limit'),
    'feature_limits.allocations': optionalWhole(v.feature_limits.allocations, 'address limit'),
    'feature_limits.backups': whole(v.feature_limits.backups, 'backup limit', 0),
  };
  if (v.allocation === '') problems.allocation = 'Choose the primary address.';
  else if (v.remove_allocations.includes(v.allocation))
    problems.allocation = 'Choose a primary address that is not being removed.';
  return problems;
}

/** The checked values go on with their text boxes trimmed. */
function tidyBuild(v: BuildValues): BuildValues {
  return { ...v, limits: trimAll(v.limits), feature_limits: trimAll(v.feature_limits) };
}

export const buildResolver = problemsResolver(buildProblems, tidyBuild);

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
  const int = toWhole;
  const nullable = (v: string) => (v.trim() === '' ? null : int(v));
  return {
    allocation: int(values.allocation),
    oom_disabled: !values.oom_killer,
    limits: toLimitsBody(values.limits),
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

const FIELDS = new Set([...LIMIT_FIELDS, 'allocation']);

/** Which field a 422's `source_field` is about (the legacy top-level names map to `limits.*`). */
export function buildFieldForWire(wire: string): Path<BuildValues> | null {
  if (wire === 'oom_disabled') return 'oom_killer';
  if (['memory', 'swap', 'disk', 'io', 'cpu', 'threads'].includes(wire))
    return `limits.${wire}` as Path<BuildValues>;
  if (/^add_allocations(\.\d+)?$/u.test(wire) || /^remove_allocations(\.\d+)?$/u.test(wire))
    return 'allocation';
  return FIELDS.has(wire) ? (wire as Path<BuildValues>) : null;
}
