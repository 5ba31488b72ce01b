import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { splitVariableRules, validate } from '@talon/shared';
import type { EggVariableChoice, ServerStartupBody } from '../../../../api/application/servers.ts';

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

export function startupSchema(variables: EggVariableChoice[]) {
  return z
    .object({
      nest: z.string(),
      egg: z.string().min(1, 'Choose the egg the server runs.'),
      image_choice: z.string(),
      image: z
        .string()
        .trim()
        .min(1, 'Choose or enter a Docker image.')
        .max(191, 'The image may not be longer than 191 characters.')
        .regex(DOCKER_IMAGE, 'The image may only contain letters, numbers and . / - : @ _ and spaces.'),
      startup: z.string().trim().min(1, 'Enter the startup command.'),
      environment: z.record(z.string(), z.string()),
      skip_scripts: z.boolean(),
    })
    .superRefine((values, ctx) => {
      for (const variable of variables) {
        const message = variableError(variable, values.environment[variable.envVariable] ?? '');
        if (message) ctx.addIssue({ code: 'custom', path: ['environment', variable.envVariable], message });
      }
    });
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
