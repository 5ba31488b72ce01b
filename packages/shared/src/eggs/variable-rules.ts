/**
 * Checks the Laravel-style `rules` string of an egg variable (`required|string|max:20`) when an egg is
 * imported, so a typo surfaces then, not later as a server owner who cannot save a value.
 */

interface RuleSpec {
  /** how the rule is written, for messages */
  usage: string;
  min: number;
  max: number;
  /** every parameter must be a number */
  numeric?: boolean;
}

const NONE: RuleSpec = { usage: '', min: 0, max: 0 };
const one = (usage: string, numeric = false): RuleSpec => ({ usage, min: 1, max: 1, numeric });
const some = (usage: string, min = 1): RuleSpec => ({ usage, min, max: Infinity });

const KNOWN: Record<string, RuleSpec> = {
  accepted: NONE,
  active_url: NONE,
  alpha: NONE,
  alpha_dash: NONE,
  alpha_num: NONE,
  array: some('array:key,…', 0),
  ascii: NONE,
  bail: NONE,
  boolean: NONE,
  declined: NONE,
  email: some('email:style,…', 0),
  filled: NONE,
  hex_color: NONE,
  integer: NONE,
  ip: NONE,
  ipv4: NONE,
  ipv6: NONE,
  json: NONE,
  lowercase: NONE,
  mac_address: NONE,
  nullable: NONE,
  numeric: NONE,
  present: NONE,
  required: NONE,
  sometimes: NONE,
  string: NONE,
  timezone: some('timezone:group', 0),
  ulid: NONE,
  uppercase: NONE,
  url: some('url:protocol,…', 0),
  uuid: NONE,
  date: NONE,
  date_format: one('date_format:format'),
  after: one('after:date'),
  before: one('before:date'),
  decimal: { usage: 'decimal:min,max', min: 1, max: 2, numeric: true },
  digits: one('digits:<number>', true),
  digits_between: { usage: 'digits_between:<min>,<max>', min: 2, max: 2, numeric: true },
  between: { usage: 'between:<min>,<max>', min: 2, max: 2, numeric: true },
  max: one('max:<number>', true),
  min: one('min:<number>', true),
  size: one('size:<number>', true),
  max_digits: one('max_digits:<number>', true),
  min_digits: one('min_digits:<number>', true),
  multiple_of: one('multiple_of:<number>', true),
  gt: one('gt:<number>', true),
  gte: one('gte:<number>', true),
  lt: one('lt:<number>', true),
  lte: one('lte:<number>', true),
  in: some('in:a,b,…'),
  not_in: some('not_in:a,b,…'),
  starts_with: some('starts_with:a,…'),
  ends_with: some('ends_with:a,…'),
  doesnt_start_with: some('doesnt_start_with:a,…'),
  doesnt_end_with: some('doesnt_end_with:a,…'),
  regex: one('regex:/pattern/'),
  not_regex: one('not_regex:/pattern/'),
};

/** PHP (PCRE) modifiers that have a JavaScript equivalent; `D` only tightens `$` and is dropped. */
const REGEX_FLAGS: Record<string, string> = { i: 'i', m: 'm', s: 's', u: 'u', D: '' };

function isRegexRule(segment: string): boolean {
  return segment.startsWith('regex:') || segment.startsWith('not_regex:');
}

/** Whether a `regex:` rule segment has reached its closing delimiter (so a `|` inside it is not a split). */
function regexClosed(segment: string): boolean {
  const pattern = segment.slice(segment.indexOf(':') + 1);
  return parseDelimited(pattern) !== null;
}

/**
 * Splits a rule string on `|`. Laravel splits blindly, which breaks `regex:/a|b/`; here a `|` inside a
 * regex's delimiters stays part of the pattern, so such rules work with us even though they would need
 * array syntax in Laravel.
 */
export function splitVariableRules(rules: string): string[] {
  const parts = rules.split('|');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    let segment = parts[i] ?? '';
    if (isRegexRule(segment)) {
      let j = i;
      while (!regexClosed(segment) && j + 1 < parts.length) segment += `|${parts[++j] ?? ''}`;
      if (regexClosed(segment)) i = j;
      else segment = parts[i] ?? '';
    }
    out.push(segment);
  }
  return out;
}

/** `/body/flags` (any non-alphanumeric delimiter, as PHP allows) → its parts, or null. */
function parseDelimited(pattern: string): { body: string; flags: string } | null {
  const open = pattern[0];
  if (open === undefined || /[A-Za-z0-9\\\s]/u.test(open)) return null;
  const close = ({ '(': ')', '[': ']', '{': '}', '<': '>' } as Record<string, string>)[open] ?? open;
  const end = pattern.lastIndexOf(close);
  if (end <= 0) return null;
  const flags = pattern.slice(end + 1);
  if (!/^[A-Za-z]*$/u.test(flags)) return null;
  return { body: pattern.slice(1, end), flags };
}

/** Compiles a rule's PHP-style pattern the way the panel will run it; throws with a reason. */
export function compileRulePattern(pattern: string): RegExp {
  const parts = parseDelimited(pattern);
  if (!parts) throw new Error('must be written between delimiters, like /^[a-z]+$/');
  let flags = '';
  for (const flag of parts.flags) {
    const js = REGEX_FLAGS[flag];
    if (js === undefined)
      throw new Error(`uses the modifier "${flag}", which is not supported (i, m, s, u, D)`);
    flags += js;
  }
  try {
    return new RegExp(parts.body, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /u, '') : '';
    throw new Error(`is not a valid regular expression (${reason})`);
  }
}

/** Laravel's short names for two rules. */
const ALIASES: Record<string, string> = { int: 'integer', bool: 'boolean' };

export interface ReadRules {
  /** the rules as this panel stores them: canonical names, no empty segments, joined with `|` */
  rules: string;
  /** what makes the rules unusable (the import is refused) */
  problems: string[];
  /** what was accepted but changed (the import goes on and says so) */
  warnings: string[];
}

/** One rule segment read the way Laravel's validator reads it: trimmed, name case-insensitive. */
function readSegment(raw: string, out: ReadRules, kept: string[]): void {
  const segment = raw.trim();
  if (segment === '') return;
  const colon = segment.indexOf(':');
  const written = colon === -1 ? segment : segment.slice(0, colon);
  const lower = written.trim().toLowerCase();
  const name = ALIASES[lower] ?? lower;
  const param = colon === -1 ? '' : segment.slice(colon + 1);
  const spec = KNOWN[name];
  if (!spec) {
    out.problems.push(`"${written}" is not a known validation rule`);
    return;
  }
  if (name === 'regex' || name === 'not_regex') {
    try {
      compileRulePattern(param);
      kept.push(`${name}:${param}`);
    } catch (error) {
      out.problems.push(`the pattern of "${name}" ${(error as Error).message}`);
    }
    return;
  }
  if (spec.max === 0 && colon !== -1) {
    // Laravel ignores a parameter on a rule that takes none; so do we, but say so.
    out.warnings.push(`"${segment}": "${name}" takes no parameters; "${param}" is ignored`);
    kept.push(name);
    return;
  }
  const params = colon === -1 ? [] : param.split(',');
  const arityOk = params.length >= spec.min && params.length <= spec.max;
  const numbersOk = !spec.numeric || params.every((p) => /^-?\d+(\.\d+)?$/u.test(p.trim()));
  if (!arityOk || !numbersOk) {
    out.problems.push(`"${segment}" must be written as ${spec.usage}`);
    return;
  }
  kept.push(colon === -1 ? name : `${name}:${param}`);
}

/**
 * Reads an egg variable's rules as the incumbent's validator (Laravel) would: a `|` string
 * (PTDL), or a list of rule strings or a PHP-style object of them (Pelican). Empty segments are
 * ignored, names trimmed and case-insensitive, `int`/`bool` are `integer`/`boolean`.
 */
export function readVariableRules(input: unknown): ReadRules {
  const out: ReadRules = { rules: '', problems: [], warnings: [] };
  let segments: string[];
  if (input === null || input === undefined) segments = [];
  else if (typeof input === 'string') segments = splitVariableRules(input);
  else if (Array.isArray(input) || (typeof input === 'object' && input !== null)) {
    const entries = Array.isArray(input) ? input : Object.values(input as Record<string, unknown>);
    segments = [];
    for (const entry of entries) {
      if (typeof entry !== 'string') {
        out.problems.push('each rule in the list must be a string');
        continue;
      }
      // A list entry is one rule; a `|` string inside a list (seen in the wild) is several.
      segments.push(...(isRegexRule(entry.trim()) ? [entry] : splitVariableRules(entry)));
    }
  } else {
    out.problems.push('must be a string of rules joined by "|", or a list of rules');
    return out;
  }
  const kept: string[] = [];
  for (const segment of segments) readSegment(segment, out, kept);
  out.rules = kept.join('|');
  return out;
}

/** Every problem with a rule string, as sentences; empty when it is usable. */
export function checkVariableRules(rules: string): string[] {
  return readVariableRules(rules).problems;
}
