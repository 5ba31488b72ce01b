/**
 * Reads an egg file (PTDL_v1 or PTDL_v2), reports every problem at once with a JSON path and a
 * sentence, and otherwise returns the normalised egg.
 */
import type { z } from 'zod';
import { eggIssueMessage } from './messages.ts';
import { formatPath } from './paths.ts';
import { jsonErrorOffset, lineAndColumn } from './json-position.ts';
import { eggV1Schema, eggV2Schema } from './schema.ts';
import {
  EGG_FORMATS,
  type EggDockerImage,
  type EggError,
  type EggFormat,
  type NormalizedEgg,
  type ParseEggResult,
} from './types.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The version decides which schema applies, so it is checked first and alone. */
function readVersion(file: Record<string, unknown>): EggFormat | EggError {
  const meta = file.meta;
  if (!isObject(meta))
    return { path: 'meta', message: meta === undefined ? 'is required' : 'must be an object' };
  const version = meta.version;
  const supported = `(${EGG_FORMATS.join(', ')})`;
  if (typeof version !== 'string') return { path: 'meta.version', message: `is required ${supported}` };
  if (!(EGG_FORMATS as readonly string[]).includes(version))
    return {
      path: 'meta.version',
      message: `${JSON.stringify(version)} is not a supported egg format ${supported}`,
    };
  return version as EggFormat;
}

/** Two variables with one environment name would overwrite each other in the server's environment. */
function duplicateEnvNames(variables: unknown): EggError[] {
  if (!Array.isArray(variables)) return [];
  const seen = new Map<string, number>();
  const errors: EggError[] = [];
  variables.forEach((variable: unknown, i) => {
    if (!isObject(variable) || typeof variable.env_variable !== 'string') return;
    // The daemon upper-cases environment names, so `port` and `PORT` collide.
    const key = variable.env_variable.toUpperCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      errors.push({
        path: `variables[${i}].env_variable`,
        message: `"${variable.env_variable}" is already used by variables[${first}]`,
      });
  });
  return errors;
}

/** PTDL_v1 named images without labels; the image doubles as its label, as the original panel did. */
function v1Images(file: z.output<typeof eggV1Schema>): EggDockerImage[] | null {
  const list = file.images?.length ? file.images : file.image ? [file.image] : [];
  const unique = [...new Set(list)];
  return unique.length ? unique.map((image) => ({ label: image, image })) : null;
}

function toErrors(issues: readonly z.core.$ZodIssue[]): EggError[] {
  return issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

type Common = z.output<typeof eggV2Schema> | z.output<typeof eggV1Schema>;

function normalise(file: Common, dockerImages: EggDockerImage[]): NormalizedEgg {
  return {
    name: file.name,
    author: file.author,
    description: file.description,
    updateUrl: file.meta.update_url,
    features: file.features,
    dockerImages,
    fileDenylist: file.file_denylist,
    startup: file.startup,
    config: file.config,
    install: file.scripts.installation,
    variables: file.variables,
  };
}

/**
 * Accepts the decoded JSON of an egg file, or its text. Never throws for bad input: every problem
 * is returned, so an operator can fix a file in one pass.
 */
export function parseEgg(json: unknown): ParseEggResult {
  let file = json;
  if (typeof json === 'string') {
    try {
      file = JSON.parse(json);
    } catch {
      const offset = jsonErrorOffset(json);
      const where =
        offset === null
          ? ''
          : ` at line ${lineAndColumn(json, offset).line}, column ${lineAndColumn(json, offset).column}`;
      return { ok: false, errors: [{ path: '', message: `the file is not valid JSON${where}` }] };
    }
  }
  if (!isObject(file))
    return { ok: false, errors: [{ path: '', message: 'an egg file must be a JSON object' }] };

  const format = readVersion(file);
  if (typeof format !== 'string') return { ok: false, errors: [format] };

  const extra = duplicateEnvNames(file.variables);
  if (format === 'PTDL_v2') {
    const result = eggV2Schema.safeParse(file, { error: eggIssueMessage });
    if (!result.success || extra.length)
      return { ok: false, errors: [...toErrors(result.error?.issues ?? []), ...extra] };
    const images = Object.entries(result.data.docker_images).map(([label, image]) => ({ label, image }));
    return { ok: true, format, egg: normalise(result.data, images) };
  }

  const result = eggV1Schema.safeParse(file, { error: eggIssueMessage });
  const images = result.success ? v1Images(result.data) : [];
  if (images === null)
    extra.unshift({ path: 'images', message: 'a PTDL_v1 egg needs "images" (a list) or "image"' });
  if (!result.success || extra.length || images === null)
    return { ok: false, errors: [...toErrors(result.error?.issues ?? []), ...extra] };
  return { ok: true, format, egg: normalise(result.data, images) };
}
