import type { Path } from 'react-hook-form';
import { splitVariableRules } from '@talon/shared/eggs/variable-rules';
import { validate } from '@talon/shared/rules';
import type { EggVariableChoice, ServerStartupBody } from '../../../../api/application/servers.ts';
import { problemsResolver, type FormProblems } from '../../components/problemsResolver.ts';

/** PATCH …/startup rules (reference §5.5); each variable is checked with its own rules, as the panel does. */
export const CUSTOM_IMAGE = '__custom__';
const DOCKER_IMAGE = /^~?[\w./\-:@ ]*$/u;

export interface StartupValues {
  nest: string;
  egg: string;
  /** One of the egg's images, or CUSTOM_IMAGE to type one into `image`. */
  image_choice: string;
  image: string;
  startup: string;
  environment: Record<string, string>;
  skip_scripts: boolean;
}

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

/** The form's rules; the egg's variables are part of them. */
export function startupProblems(
  variables: EggVariableChoice[],
  v: StartupValues,
): FormProblems<StartupValues> {
  const problems: FormProblems<StartupValues> = {};
  if (v.egg === '') problems.egg = 'Choose the egg the server runs.';
  const image = v.image.trim();
  if (image === '') problems.image = 'Choose or enter a Docker image.';
  else if (image.length > 191) problems.image = 'The image may not be longer than 191 characters.';
  else if (!DOCKER_IMAGE.test(image))
    problems.image = 'The image may only contain letters, numbers and . / - : @ _ and spaces.';
  if (v.startup.trim() === '') problems.startup = 'Enter the startup command.';
  for (const variable of variables) {
    const message = variableError(variable, v.environment[variable.envVariable] ?? '');
    if (message) problems[`environment.${variable.envVariable}`] = message;
  }
  return problems;
}

/** A resolver over startupProblems with the egg's variables; the values go on with image and command trimmed. */
export function startupResolver(variables: EggVariableChoice[]) {
  return problemsResolver<StartupValues>(
    (v) => startupProblems(variables, v),
    (v) => ({ ...v, image: v.image.trim(), startup: v.startup.trim() }),
  );
}

/** The image select's value for `image`: the matching egg image, else "custom". */
export function imageChoiceFor(image: string, images: Record<string, string>): string {
  return Object.values(images).includes(image) ? image : CUSTOM_IMAGE;
}

/** Every variable of the egg, always: the API blanks the ones left out. */
export function toStartupBody(values: StartupValues, variables: EggVariableChoice[]): ServerStartupBody {
  return {
    startup: values.startup.trim(),
    environment: Object.fromEntries(
      variables.map((v) => [v.envVariable, (values.environment[v.envVariable] ?? '').trim()]),
    ),
    egg: Number.parseInt(values.egg, 10),
    image: values.image.trim(),
    skip_scripts: values.skip_scripts,
  };
}

export function startupFieldForWire(
  wire: string,
  variables: EggVariableChoice[],
): Path<StartupValues> | null {
  if (wire.startsWith('environment.')) {
    const env = wire.slice('environment.'.length);
    return variables.some((v) => v.envVariable === env)
      ? (`environment.${env}` as Path<StartupValues>)
      : null;
  }
  if (wire === 'egg' || wire === 'image' || wire === 'startup' || wire === 'skip_scripts') return wire;
  return null;
}
