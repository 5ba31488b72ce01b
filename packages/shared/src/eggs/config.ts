/**
 * The `config` block of an egg. Real files carry `files`, `startup` and `logs` as JSON documents
 * encoded in strings (some tools write plain objects); both are accepted and decoded here, and
 * problems inside the encoded text are reported with paths as if it were ordinary JSON.
 */
import { z } from 'zod';
import { EGG_CONFIG_PARSERS, type JsonValue } from './types.ts';
import { eggIssueMessage } from './messages.ts';
import { jsonErrorOffset, lineAndColumn } from './json-position.ts';

function jsonSyntaxMessage(text: string): string {
  const offset = jsonErrorOffset(text);
  if (offset === null) return 'is not valid JSON';
  const { line, column } = lineAndColumn(text, offset);
  return `is not valid JSON (line ${line}, column ${column})`;
}

/**
 * Accepts the section as JSON text or as an already-decoded value and validates it with `inner`.
 * Empty text, null and PHP's `[]` for an empty map all mean "nothing configured" where allowed.
 */
function jsonSection<T extends z.ZodType>(inner: T, emptyValue?: z.output<T>) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): z.output<T> => {
      let decoded: unknown = value;
      if (typeof value === 'string') {
        if (value.trim() === '' && emptyValue !== undefined) return emptyValue;
        try {
          decoded = JSON.parse(value);
        } catch {
          ctx.addIssue({ code: 'custom', message: jsonSyntaxMessage(value) });
          return z.NEVER;
        }
      }
      if (emptyValue !== undefined && (decoded == null || (Array.isArray(decoded) && decoded.length === 0)))
        return emptyValue;
      const result = inner.safeParse(decoded, { error: eggIssueMessage });
      if (result.success) return result.data;
      for (const issue of result.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [...issue.path] as (string | number)[],
        });
      return z.NEVER;
    });
}

const replaceValue = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: 'must be a string, number, true/false or null',
});

const configFile = z.object({
  parser: z.enum(EGG_CONFIG_PARSERS, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `${JSON.stringify(issue.input)} is not a supported parser (${EGG_CONFIG_PARSERS.join(', ')})`,
  }),
  find: z.record(
    z.string(),
    z.union([replaceValue, z.record(z.string(), replaceValue)], {
      error: 'must be a replacement value or an object of { "current value": replacement }',
    }),
  ),
});

/**
 * A path the daemon will open relative to the server root; leaving the root is never meant. A
 * leading `/` names the same path inside the server (the daemon's jail treats it so, as Wings does).
 */
function insideServer(path: string): boolean {
  if (path.includes('\\')) return false;
  return !path.split('/').includes('..');
}

const configFiles = z.record(z.string(), configFile).superRefine((files, ctx) => {
  for (const path of Object.keys(files)) {
    if (path.trim() === '' || !insideServer(path))
      ctx.addIssue({
        code: 'custom',
        message: 'must be a relative path inside the server directory',
        path: [path],
      });
  }
});

/** An empty entry is allowed: like Wings, it matches the first line (the server is running at once). */
function checkDonePattern(entry: string): string | null {
  if (entry.startsWith('regex:') && entry.length > 'regex:'.length) {
    try {
      new RegExp(entry.slice('regex:'.length));
    } catch {
      return 'is not a valid regular expression';
    }
  }
  return null;
}

/** `done` is one string or a list; a lone string's problems are reported at `done` itself. */
const done = z.unknown().transform((value, ctx): string[] => {
  if (value === undefined) {
    ctx.addIssue({ code: 'custom', message: 'is required' });
    return z.NEVER;
  }
  const list: unknown = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((e): e is string => typeof e === 'string')) {
    ctx.addIssue({ code: 'custom', message: 'must be a string or a list of strings' });
    return z.NEVER;
  }
  if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one string' });
  list.forEach((entry, i) => {
    const problem = checkDonePattern(entry);
    if (problem)
      ctx.addIssue({ code: 'custom', message: problem, path: typeof value === 'string' ? [] : [i] });
  });
  return list;
});

const jsonValue: z.ZodType<JsonValue> = z.json();

/** Keys Wings ignores but old eggs carry (`userInteraction`) are kept, so a round trip loses nothing. */
const configStartup = z.looseObject({ done, strip_ansi: z.boolean().optional() }).transform((s) => {
  const { done: list, strip_ansi: stripAnsi, ...rest } = s;
  const extra = Object.fromEntries(
    Object.entries(rest).filter((e): e is [string, JsonValue] => jsonValue.safeParse(e[1]).success),
  );
  return Object.keys(extra).length
    ? { done: list, stripAnsi: stripAnsi ?? false, extra }
    : { done: list, stripAnsi: stripAnsi ?? false };
});

export const eggConfigSchema = z.object({
  files: jsonSection(configFiles, {}),
  startup: jsonSection(configStartup),
  // A missing `logs` is empty, like `[]` or null: Wings never reads it.
  logs: jsonSection(z.record(z.string(), jsonValue), {}),
  stop: z
    .string()
    .min(1)
    .max(191) // the panel's column
    .refine((s) => s !== '^', 'must name a signal after "^" (for example ^C or ^SIGTERM)'),
});
