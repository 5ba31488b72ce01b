import type { Path } from 'react-hook-form';
import type { CreateServerBody, EggVariableChoice } from '../../../../api/application/servers.ts';
import { problemsResolver, type FormProblems } from '../../components/problemsResolver.ts';
import {
  CUSTOM_IMAGE,
  dockerImageProblem,
  LIMIT_FIELDS,
  limitsProblems,
  toEnvironmentBody,
  toLimitsBody,
  toWhole,
  trimAll,
  variablesProblems,
  whole,
  type LimitsText,
} from '../serverRules.ts';

/**
 * The new server form's values and rules: the application API's (reference §5.5, `POST /servers`),
 * checked before sending so most mistakes show at once; the API's 422s land on the same fields,
 * which are named after the wire fields (`limits.memory`, `environment.SERVER_PORT`…).
 */
export { CUSTOM_IMAGE };

const PORT_ENTRY = /^\d{1,5}(-\d{1,5})?$/u;

export interface NewServerValues {
  /** The owner's user id ('' until chosen). */
  user: string;
  name: string;
  description: string;
  external_id: string;
  where: 'node' | 'deploy';
  node: string;
  allocation: { default: string; additional: string[] };
  deploy: { locations: string[]; dedicated_ip: boolean; port_range: string };
  nest: string;
  egg: string;
  /** One of the egg's images, or CUSTOM_IMAGE to type one into `docker_image`. */
  image_choice: string;
  docker_image: string;
  startup: string;
  environment: Record<string, string>;
  limits: LimitsText;
  feature_limits: { databases: string; allocations: string; backups: string };
  /** the out-of-memory killer on (the wire's `oom_disabled` is its opposite), as on the Build tab */
  oom_killer: boolean;
  start_on_completion: boolean;
  skip_scripts: boolean;
}

/** What a new operator usually wants: 1 GiB memory, 5 GiB disk, no swap, any CPU. */
export const NEW_SERVER_DEFAULTS: NewServerValues = {
  user: '',
  name: '',
  description: '',
  external_id: '',
  where: 'node',
  node: '',
  allocation: { default: '', additional: [] },
  deploy: { locations: [], dedicated_ip: false, port_range: '' },
  nest: '',
  egg: '',
  image_choice: '',
  docker_image: '',
  startup: '',
  environment: {},
  limits: { memory: '1024', swap: '0', disk: '5120', io: '500', cpu: '0', threads: '' },
  feature_limits: { databases: '0', allocations: '1', backups: '1' },
  oom_killer: false,
  start_on_completion: true,
  skip_scripts: false,
};

/** The form's rules; the egg's variables are part of them. */
export function newServerProblems(
  variables: EggVariableChoice[],
  v: NewServerValues,
): FormProblems<NewServerValues> {
  const problems: FormProblems<NewServerValues> = {
    ...limitsProblems(v.limits),
    'feature_limits.databases': whole(v.feature_limits.databases, 'database limit', 0),
    'feature_limits.allocations': whole(v.feature_limits.allocations, 'allocation limit', 0),
    'feature_limits.backups': whole(v.feature_limits.backups, 'backup limit', 0),
  };
  if (v.user === '') problems.user = 'Choose the owner of the server.';
  const name = v.name.trim();
  if (name === '') problems.name = 'Give the server a name.';
  else if (name.length > 191) problems.name = 'The name may not be longer than 191 characters.';
  if (v.external_id.trim().length > 191)
    problems.external_id = 'The external ID may not be longer than 191 characters.';
  if (v.egg === '') problems.egg = 'Choose what the server runs (an egg).';
  const imageProblem = dockerImageProblem(v.docker_image);
  if (imageProblem) problems.docker_image = imageProblem;
  if (v.startup.trim() === '') problems.startup = 'Enter the startup command.';

  if (v.where === 'node') {
    if (v.node === '') problems.node = 'Choose the node the server runs on.';
    else if (v.allocation.default === '')
      problems['allocation.default'] = 'Choose the address and port the server listens on.';
  } else {
    const bad = portEntries(v.deploy.port_range).find((entry) => !PORT_ENTRY.test(entry));
    if (bad !== undefined)
      problems['deploy.port_range'] = `"${bad}" is not a port or a range of ports like 25565-25600.`;
  }
  return { ...problems, ...variablesProblems(variables, v.environment) };
}

/** The checked values go on with their text boxes trimmed. */
function tidyNewServer(v: NewServerValues): NewServerValues {
  return {
    ...v,
    name: v.name.trim(),
    external_id: v.external_id.trim(),
    docker_image: v.docker_image.trim(),
    startup: v.startup.trim(),
    limits: trimAll(v.limits),
    feature_limits: trimAll(v.feature_limits),
  };
}

/** A resolver over newServerProblems with the chosen egg's variables. */
export function newServerResolver(variables: EggVariableChoice[]) {
  return problemsResolver<NewServerValues>((v) => newServerProblems(variables, v), tidyNewServer);
}

function portEntries(text: string): string[] {
  return text
    .split(/[\s,]+/u)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The request body of the checked values. */
export function toCreateServerBody(
  values: NewServerValues,
  variables: EggVariableChoice[],
): CreateServerBody {
  const int = toWhole;
  return {
    name: values.name.trim(),
    user: int(values.user),
    egg: int(values.egg),
    docker_image: values.docker_image.trim(),
    startup: values.startup.trim(),
    environment: toEnvironmentBody(variables, values.environment),
    limits: toLimitsBody(values.limits),
    feature_limits: {
      databases: int(values.feature_limits.databases),
      allocations: int(values.feature_limits.allocations),
      backups: int(values.feature_limits.backups),
    },
    ...(values.where === 'node'
      ? {
          allocation: {
            default: int(values.allocation.default),
            additional: values.allocation.additional
              .filter((id) => id !== values.allocation.default)
              .map(int),
          },
        }
      : {
          deploy: {
            locations: values.deploy.locations.map(int),
            dedicated_ip: values.deploy.dedicated_ip,
            port_range: portEntries(values.deploy.port_range),
          },
        }),
    external_id: values.external_id.trim() || null,
    description: values.description.trim() || null,
    oom_disabled: !values.oom_killer,
    skip_scripts: values.skip_scripts,
    start_on_completion: values.start_on_completion,
  };
}

const WIRE_FIELDS = new Set([
  'user',
  'name',
  'description',
  'external_id',
  'egg',
  'docker_image',
  'startup',
  'allocation.default',
  'allocation.additional',
  'deploy.locations',
  'deploy.dedicated_ip',
  'deploy.port_range',
  ...LIMIT_FIELDS,
  'skip_scripts',
  'start_on_completion',
]);

/**
 * Which field a 422's `source_field` is about: the same name, a list's element on the list
 * (`allocation.additional.1`), a variable on its field; null for anything the form does not show.
 */
export function newServerFieldForWire(
  wire: string,
  variables: EggVariableChoice[],
): Path<NewServerValues> | null {
  if (wire.startsWith('environment.')) {
    const env = wire.slice('environment.'.length);
    return variables.some((v) => v.envVariable === env) ? fieldPath(`environment.${env}`) : null;
  }
  const list = /^(allocation\.additional|deploy\.locations|deploy\.port_range)\.\d+$/u.exec(wire);
  if (list) return fieldPath(list[1]!);
  if (wire === 'limits') return fieldPath('limits.memory');
  if (wire === 'feature_limits') return fieldPath('feature_limits.databases');
  if (wire === 'allocation') return fieldPath('allocation.default');
  if (wire === 'oom_disabled') return fieldPath('oom_killer');
  return WIRE_FIELDS.has(wire) ? fieldPath(wire) : null;
}

/** A form field path (variable names are only known at run time). */
function fieldPath(path: string): Path<NewServerValues> {
  return path as Path<NewServerValues>;
}
