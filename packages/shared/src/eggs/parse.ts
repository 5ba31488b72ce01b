/**
 * Reads an egg file (PTDL_v1, PTDL_v2, PLCN_v1–v3; JSON or YAML), reports every problem at once
 * with a JSON path and a sentence, and otherwise returns the normalised egg with the warnings of
 * what was accepted leniently (the way the incumbent's and Pelican's importers accept it).
 */
import type { z } from 'zod';
import { CST, Lexer, parse as parseYaml } from 'yaml';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../http-limits.ts';
import { unknownPlaceholders } from './placeholders.ts';
import { readVariableRules } from './variable-rules.ts';
import { eggIssueMessage } from './messages.ts';
import { formatPath } from './paths.ts';
import { jsonErrorOffset, lineAndColumn } from './json-position.ts';
import { eggSchema, eggV1Schema } from './schema.ts';
import {
  EGG_FORMATS,
  type EggDockerImage,
  type EggError,
  type EggFormat,
  type EggStartupCommand,
  type EggVariable,
  type EggWarning,
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

/**
 * Two variables with one environment name would overwrite each other in the server's environment
 * (the daemon upper-cases names). Pelican merges them; so do we: the later definition wins, at the
 * place of the first, and the operator is told.
 */
function mergeDuplicates(variables: EggVariable[], warnings: EggWarning[]): EggVariable[] {
  const byName = new Map<string, number>();
  const out: EggVariable[] = [];
  variables.forEach((variable, i) => {
    const key = variable.envVariable.toUpperCase();
    const first = byName.get(key);
    if (first === undefined) {
      byName.set(key, out.length);
      out.push(variable);
      return;
    }
    out[first] = variable;
    warnings.push({
      path: `variables[${i}].env_variable`,
      message: `"${variable.envVariable}" repeats an earlier variable; they were merged (this definition wins)`,
    });
  });
  return out;
}

/** Pelican's `sort` decides the display order; variables without one keep their place after them. */
function bySort(variables: EggVariable[]): EggVariable[] {
  return variables
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.sort ?? Infinity) - (b.v.sort ?? Infinity) || a.i - b.i)
    .map(({ v }) => v);
}

/** Warnings about rules that were read leniently (a parameter ignored…), per variable. */
function ruleWarnings(variables: unknown): EggWarning[] {
  if (!Array.isArray(variables)) return [];
  return variables.flatMap((v: unknown, i) =>
    isObject(v)
      ? readVariableRules(v.rules).warnings.map((message) => ({ path: `variables[${i}].rules`, message }))
      : [],
  );
}

/** A placeholder nobody knows would become an empty string at start: say so at import. */
function placeholderWarnings(egg: NormalizedEgg): EggWarning[] {
  const warnings: EggWarning[] = [];
  const say = (path: string, text: string) => {
    for (const p of unknownPlaceholders(text))
      warnings.push({ path, message: `the placeholder {{${p}}} is unknown and will be empty` });
  };
  for (const [file, entry] of Object.entries(egg.config.files))
    for (const [match, value] of Object.entries(entry.find)) {
      const where = formatPath(['config', 'files', file, 'find', match]);
      if (typeof value === 'string') say(where, value);
      else if (value !== null && typeof value === 'object')
        for (const v of Object.values(value)) if (typeof v === 'string') say(where, v);
    }
  egg.startupCommands.forEach((c) =>
    say(egg.startupCommands.length > 1 ? `startup_commands${formatPath([c.name])}` : 'startup', c.command),
  );
  return warnings;
}

/** The start-up commands: PLCN_v3's named map, or the one `startup` of every other format. */
function startupCommands(file: { startup?: string; startup_commands?: Record<string, string> }) {
  if (file.startup_commands)
    return Object.entries(file.startup_commands).map(([name, command]) => ({ name, command }));
  return file.startup ? [{ name: 'Default', command: file.startup }] : [];
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

type Common = z.output<ReturnType<typeof eggSchema>> | z.output<typeof eggV1Schema>;

function normalise(
  file: Common,
  dockerImages: EggDockerImage[],
  commands: EggStartupCommand[],
  warnings: EggWarning[],
): NormalizedEgg {
  return {
    uuid: file.uuid,
    tags: file.tags,
    name: file.name,
    author: file.author,
    description: file.description,
    updateUrl: file.meta.update_url,
    features: file.features,
    dockerImages,
    fileDenylist: file.file_denylist,
    startup: commands[0]?.command ?? '',
    startupCommands: commands,
    config: file.config,
    install: file.scripts.installation,
    variables: bySort(mergeDuplicates(file.variables, warnings)),
  };
}

/**
 * The longest egg file text read, in characters. Real eggs are a few KiB (the largest community
 * ones about 10 KiB); the YAML parser needs seconds and hundreds of MiB for a crafted MiB, and a
 * 9 MB file ran the panel out of heap (issue 23), so longer text is refused before any parser.
 */
export const EGG_FILE_MAX_CHARS = 256 * 1024;
/** Alias expansions a YAML egg may make; real eggs use none (the billion-laughs bomb needs many). */
const MAX_YAML_ALIASES = 100;

function sizeInWords(chars: number): string {
  const kib = Math.ceil(chars / 1024);
  return kib < 1024 ? `${kib} KiB` : `${(chars / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Whether YAML text opens flow lists or maps (`[`, `{`) deeper than `max`: the parser recurses per
 * level and a file of brackets exhausts its stack or the heap. Counted on the YAML lexer's tokens,
 * which is linear and does not recurse, so brackets in strings, comments and scripts do not count.
 */
function yamlTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (++depth > max) return true;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') depth--;
  }
  return false;
}

/** The limits of egg file text, checked before it is parsed: one error in words, or null. */
function beyondLimits(text: string, looksLikeJson: boolean): EggError | null {
  if (text.length > EGG_FILE_MAX_CHARS) {
    const most = sizeInWords(EGG_FILE_MAX_CHARS);
    return {
      path: '',
      message: `the file is ${sizeInWords(text.length)}; an egg file may be at most ${most}`,
    };
  }
  if (looksLikeJson ? jsonTooDeep(text) : yamlTooDeep(text))
    return { path: '', message: `the file nests lists or maps more than ${MAX_JSON_DEPTH} levels deep` };
  return null;
}

/**
 * Text to a value: JSON when it looks like JSON (a JSON file's errors are reported as JSON errors,
 * and `\/` is valid JSON but not YAML), YAML otherwise (Pelican exports YAML).
 */
function decode(text: string): { value: unknown } | { error: EggError } {
  const body = text.replace(/^\uFEFF/u, '');
  const looksLikeJson = /^\s*[{[]/u.test(body);
  const refused = beyondLimits(body, looksLikeJson);
  if (refused) return { error: refused };
  if (looksLikeJson) {
    try {
      return { value: JSON.parse(body) };
    } catch {
      const offset = jsonErrorOffset(body);
      const where =
        offset === null
          ? ''
          : ` at line ${lineAndColumn(body, offset).line}, column ${lineAndColumn(body, offset).column}`;
      return { error: { path: '', message: `the file is not valid JSON${where}` } };
    }
  }
  try {
    return { value: parseYaml(body, { maxAliasCount: MAX_YAML_ALIASES }) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : '';
    if (reason?.startsWith('Excessive alias count')) {
      const message = `the file expands YAML aliases too often (more than ${MAX_YAML_ALIASES} times): an egg file needs none`;
      return { error: { path: '', message } };
    }
    return { error: { path: '', message: `the file is neither JSON nor valid YAML (${reason})` } };
  }
}

/** What every format must have that the schema cannot say field by field. */
function startupProblems(file: Common): EggError[] {
  if (file.startup === undefined && file.startup_commands === undefined)
    return [{ path: 'startup', message: 'is required' }];
  return [];
}

/**
 * Accepts the decoded JSON of an egg file, or its text. Never throws for bad input: every problem
 * is returned, so an operator can fix a file in one pass.
 */
export function parseEgg(json: unknown): ParseEggResult {
  let file = json;
  if (typeof json === 'string') {
    const decoded = decode(json);
    if ('error' in decoded) return { ok: false, errors: [decoded.error] };
    file = decoded.value;
  }
  if (!isObject(file))
    return { ok: false, errors: [{ path: '', message: 'an egg file must be a JSON object' }] };

  const format = readVersion(file);
  if (typeof format !== 'string') return { ok: false, errors: [format] };

  const warnings = ruleWarnings(file.variables);
  const finish = (data: Common, images: EggDockerImage[]): ParseEggResult => {
    const egg = normalise(data, images, startupCommands(data), warnings);
    return { ok: true, format, egg, warnings: [...warnings, ...placeholderWarnings(egg)] };
  };

  if (format !== 'PTDL_v1') {
    const result = eggSchema(format).safeParse(file, { error: eggIssueMessage });
    const extra = result.success ? startupProblems(result.data) : [];
    if (!result.success || extra.length)
      return { ok: false, errors: [...toErrors(result.error?.issues ?? []), ...extra] };
    const images = Object.entries(result.data.docker_images).map(([label, image]) => ({ label, image }));
    return finish(result.data, images);
  }

  const result = eggV1Schema.safeParse(file, { error: eggIssueMessage });
  const images = result.success ? v1Images(result.data) : [];
  const extra = result.success ? startupProblems(result.data) : [];
  if (images === null)
    extra.unshift({ path: 'images', message: 'a PTDL_v1 egg needs "images" (a list) or "image"' });
  if (!result.success || extra.length || images === null)
    return { ok: false, errors: [...toErrors(result.error?.issues ?? []), ...extra] };
  return finish(result.data, images);
}
