import { splitVariableRules } from '@talon/shared/eggs/variable-rules';
import { validate } from '@talon/shared/rules';
import type { EggVariableChoice, ServerLimits } from '../../../api/application/servers.ts';

/**
 * The server rules the new-server form and the server view (Build, Startup) share, as the
 * application API checks them (reference §5.5), so both say the same words for the same mistake.
 */

/** The image select's value for "type your own image". */
export const CUSTOM_IMAGE = '__custom__';

/** The image rule of the API (`^~?[\w./\-:@ ]*$`, at most 191 characters). */
const DOCKER_IMAGE = /^~?[\w./\-:@ ]*$/u;
const THREADS = /^[0-9-,]+$/u;
const WHOLE = /^-?\d+$/u;

/** The problem with a whole-number text box, or undefined. */
export function whole(text: string, label: string, min: number, max?: number): string | undefined {
  const v = text.trim();
  if (v === '') return `Enter the ${label}.`;
  if (!WHOLE.test(v)) return `The ${label} must be a whole number.`;
  if (Number(v) < min || (max !== undefined && Number(v) > max)) {
    return max === undefined
      ? `The ${label} must be at least ${min}.`
      : `The ${label} must be between ${min} and ${max}.`;
  }
  return undefined;
}

/** The text boxes of a server's resource limits (a type, not an interface: trimAll takes it). */
export type LimitsText = {
  memory: string;
  swap: string;
  disk: string;
  io: string;
  cpu: string;
  threads: string;
};

/** The problems of each resource limit, by the wire names (`limits.memory`…). */
export function limitsProblems(limits: LimitsText) {
  const threads = limits.threads.trim();
  return {
    'limits.memory': whole(limits.memory, 'memory limit', 0),
    'limits.swap': whole(limits.swap, 'swap limit', -1),
    'limits.disk': whole(limits.disk, 'disk limit', 0),
    'limits.io': whole(limits.io, 'block IO weight', 10, 1000),
    'limits.cpu': whole(limits.cpu, 'CPU limit', 0),
    'limits.threads':
      threads === '' || THREADS.test(threads)
        ? undefined
        : 'Threads are numbers, commas and dashes, like 0-1,3.',
  } as const;
}

/** The limit fields by their wire names, where a 422 about a limit lands. */
export const LIMIT_FIELDS = [
  'limits.memory',
  'limits.swap',
  'limits.disk',
  'limits.io',
  'limits.cpu',
  'limits.threads',
  'feature_limits.databases',
  'feature_limits.allocations',
  'feature_limits.backups',
] as const;

/** The problem with a Docker image, or undefined. */
export function dockerImageProblem(text: string): string | undefined {
  const image = text.trim();
  if (image === '') return 'Choose or enter a Docker image.';
  if (image.length > 191) return 'The image may not be longer than 191 characters.';
  if (!DOCKER_IMAGE.test(image))
    return 'The image may only contain letters, numbers and . / - : @ _ and spaces.';
  return undefined;
}

/** A variable's value checked with its own rules, as the panel checks it (empty counts as unset). */
export function variableError(variable: EggVariableChoice, value: string): string | null {
  const field = `environment.${variable.envVariable}`;
  const trimmed = value.trim();
  const failures = validate(
    { environment: { [variable.envVariable]: trimmed === '' ? null : trimmed } },
    { [field]: splitVariableRules(variable.rules) },
    { [field]: `${variable.name} variable` },
  );
  return failures[0]?.detail ?? null;
}

/** Each variable's problem, as `environment.<ENV>`. */
export function variablesProblems(
  variables: EggVariableChoice[],
  environment: Record<string, string>,
): Record<`environment.${string}`, string> {
  const problems: Record<`environment.${string}`, string> = {};
  for (const variable of variables) {
    const message = variableError(variable, environment[variable.envVariable] ?? '');
    if (message) problems[`environment.${variable.envVariable}`] = message;
  }
  return problems;
}

/** A checked whole-number text box as a number. */
export function toWhole(text: string): number {
  return Number.parseInt(text.trim(), 10);
}

/** The checked limits as the API takes them (no threads: null). */
export function toLimitsBody(limits: LimitsText): ServerLimits {
  return {
    memory: toWhole(limits.memory),
    swap: toWhole(limits.swap),
    disk: toWhole(limits.disk),
    io: toWhole(limits.io),
    cpu: toWhole(limits.cpu),
    threads: limits.threads.trim() || null,
  };
}

/** Every variable of the egg, always (the API blanks the ones left out), trimmed. */
export function toEnvironmentBody(
  variables: EggVariableChoice[],
  environment: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(variables.map((v) => [v.envVariable, (environment[v.envVariable] ?? '').trim()]));
}

/** A group of text boxes with each one trimmed (the checked values go on this way). */
export function trimAll<T extends Record<string, string>>(group: T): T {
  return Object.fromEntries(Object.entries(group).map(([k, text]) => [k, text.trim()])) as T;
}
