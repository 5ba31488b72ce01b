import type { Path } from 'react-hook-form';
import type { EggVariableChoice, ServerStartupBody } from '../../../../api/application/servers.ts';
import { problemsResolver, type FormProblems } from '../../components/problemsResolver.ts';
import { CUSTOM_IMAGE, dockerImageProblem, toEnvironmentBody, variablesProblems } from '../serverRules.ts';

/** PATCH …/startup rules (reference §5.5); each variable is checked with its own rules, as the panel does. */
export { CUSTOM_IMAGE };

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

/** The form's rules; the egg's variables are part of them. */
export function startupProblems(
  variables: EggVariableChoice[],
  v: StartupValues,
): FormProblems<StartupValues> {
  const problems: FormProblems<StartupValues> = {};
  if (v.egg === '') problems.egg = 'Choose the egg the server runs.';
  const imageProblem = dockerImageProblem(v.image);
  if (imageProblem) problems.image = imageProblem;
  if (v.startup.trim() === '') problems.startup = 'Enter the startup command.';
  return { ...problems, ...variablesProblems(variables, v.environment) };
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
    environment: toEnvironmentBody(variables, values.environment),
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
