/**
 * Server-side input rules with the Laravel semantics and message templates that Pterodactyl clients
 * see in 422 bodies (reference §1.9, §1.10). A rule set maps a field path (dots for nesting, `*` for
 * every element) to rules such as `required|string|max:191`. `validate` returns one entry per failed
 * rule, ordered by field as declared, in the wire shape of a validation error.
 */

export interface RuleFailure {
  /** field path with real indices, e.g. `allowed_ips.0` */
  field: string;
  /** snake_case rule name, or '' for checks done after validation */
  rule: string;
  detail: string;
}

/** A check of our own; returns a message (with `:attribute`) when it fails. */
export interface CustomRule {
  name: string;
  check: (value: unknown, data: Record<string, unknown>) => string | null;
}

export type RuleList = string | readonly (string | CustomRule)[];
export type RuleSet = Record<string, RuleList>;

const IMPLICIT = new Set([
  'required',
  'present',
  'filled',
  'required_unless',
  'required_with',
  'required_without',
]);

const MESSAGES: Record<string, string> = {
  required: 'The :attribute field is required.',
  present: 'The :attribute field must be present.',
  filled: 'The :attribute field is required.',
  string: 'The :attribute must be a string.',
  boolean: 'The :attribute field must be true or false.',
  numeric: 'The :attribute must be a number.',
  integer: 'The :attribute must be an integer.',
  array: 'The :attribute must be an array.',
  email: 'The :attribute must be a valid email address.',
  url: 'The :attribute format is invalid.',
  regex: 'The :attribute format is invalid.',
  in: 'The selected :attribute is invalid.',
  not_in: 'The selected :attribute is invalid.',
  exists: 'The selected :attribute is invalid.',
  unique: 'The :attribute has already been taken.',
  confirmed: 'The :attribute confirmation does not match.',
  alpha_dash: 'The :attribute may only contain letters, numbers, and dashes.',
  alpha_num: 'The :attribute may only contain letters and numbers.',
  ip: 'The :attribute must be a valid IP address.',
  json: 'The :attribute must be a valid JSON string.',
  required_unless: 'The :attribute field is required unless :other is in :values.',
  required_with: 'The :attribute field is required when :values is present.',
  required_without: 'The :attribute field is required when :values is not present.',
  uuid: 'The :attribute must be a valid UUID.',
  alpha: 'The :attribute may only contain letters.',
  ipv4: 'The :attribute must be a valid IPv4 address.',
  ipv6: 'The :attribute must be a valid IPv6 address.',
  digits: 'The :attribute must be :size digits.',
  digits_between: 'The :attribute must be between :min and :max digits.',
  starts_with: 'The :attribute must start with one of the following: :values.',
  ends_with: 'The :attribute must end with one of the following: :values.',
  lowercase: 'The :attribute must be lowercase.',
  uppercase: 'The :attribute must be uppercase.',
  p_username:
    'The :attribute must start and end with alpha-numeric characters and contain only letters, numbers, dashes, underscores, and periods.',
};

const SIZED: Record<string, Record<'string' | 'numeric' | 'array', string>> = {
  min: {
    string: 'The :attribute must be at least :min characters.',
    numeric: 'The :attribute must be at least :min.',
    array: 'The :attribute must have at least :min items.',
  },
  max: {
    string: 'The :attribute may not be greater than :max characters.',
    numeric: 'The :attribute may not be greater than :max.',
    array: 'The :attribute may not have more than :max items.',
  },
  between: {
    string: 'The :attribute must be between :min and :max characters.',
    numeric: 'The :attribute must be between :min and :max.',
    array: 'The :attribute must have between :min and :max items.',
  },
  size: {
    string: 'The :attribute must be :size characters.',
    numeric: 'The :attribute must be :size.',
    array: 'The :attribute must contain :size items.',
  },
};

const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+\.[^\s@"(),:;<>[\\\]]+$/u;
const USERNAME = /^[a-z0-9]([\w.-]+)?[a-z0-9]$|^[a-z0-9]$/iu;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/u;
const IPV6 = /^[0-9a-f:.]+$/iu;

export function isEmail(value: string): boolean {
  return EMAIL.test(value) && value.length <= 254;
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/iu;

/**
 * A sender (mail-from) address: an email address whose domain may also be one host label
 * (`no-reply@localhost`, the panel's default), which mail servers accept for local delivery.
 */
export function isSenderAddress(value: string): boolean {
  if (isEmail(value)) return true;
  const at = value.lastIndexOf('@');
  return (
    at > 0 &&
    isEmail(`${value.slice(0, at)}@x.x`) &&
    HOST_LABEL.test(value.slice(at + 1)) &&
    value.length <= 254
  );
}

export function isUsername(value: string): boolean {
  return USERNAME.test(value);
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(value);
}

function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
}

function isInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  return typeof v === 'string' && /^-?\d+$/u.test(v.trim());
}

function isEmpty(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0)
  );
}

function has(data: unknown, path: string): boolean {
  let cur: unknown = data;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in cur)) return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return true;
}

export function getPath(data: unknown, path: string): unknown {
  let cur: unknown = data;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Expands `a.*.b` into the concrete paths present in `data`. */
function expand(data: unknown, pattern: string): string[] {
  const star = pattern.indexOf('*');
  if (star === -1) return [pattern];
  const head = pattern.slice(0, Math.max(0, star - 1));
  const tail = pattern.slice(star + 1);
  const container = head === '' ? data : getPath(data, head);
  if (container === null || typeof container !== 'object') return [];
  return Object.keys(container).flatMap((key) => expand(data, `${head ? `${head}.` : ''}${key}${tail}`));
}

function label(field: string, attributes: Record<string, string>): string {
  return attributes[field] ?? field.replace(/_/gu, ' ');
}

function sizeOf(value: unknown, kind: 'string' | 'numeric' | 'array'): number {
  if (kind === 'numeric') return Number(value);
  if (kind === 'array') return Array.isArray(value) ? value.length : Object.keys(value as object).length;
  return [...String(value)].length;
}

function parseRules(list: RuleList): (string | CustomRule)[] {
  return typeof list === 'string' ? list.split('|').filter(Boolean) : [...list];
}

export function validate(
  data: Record<string, unknown>,
  rules: RuleSet,
  attributes: Record<string, string> = {},
): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (const [pattern, list] of Object.entries(rules)) {
    const parsed = parseRules(list);
    const names = parsed.filter((r): r is string => typeof r === 'string').map((r) => r.split(':')[0]);
    const kind: 'string' | 'numeric' | 'array' =
      names.includes('numeric') || names.includes('integer')
        ? 'numeric'
        : names.includes('array')
          ? 'array'
          : 'string';
    const paths = pattern.includes('*') ? expand(data, pattern) : [pattern];
    for (const field of paths) {
      const value = getPath(data, field);
      const present = has(data, field);
      if (names.includes('sometimes') && !present) continue;
      const attr = label(pattern.includes('*') ? field : pattern, attributes);
      for (const rule of parsed) {
        if (typeof rule !== 'string') {
          if (!present || (names.includes('nullable') && value === null)) continue;
          const message = rule.check(value, data);
          if (message)
            failures.push({ field, rule: rule.name, detail: message.replace(/:attribute/gu, attr) });
          continue;
        }
        const [name = '', param = ''] = splitRule(rule);
        if (name === 'sometimes' || name === 'nullable' || name === 'bail') continue;
        if (!IMPLICIT.has(name)) {
          if (!present) continue;
          if (value === null && names.includes('nullable')) continue;
        }
        if ((name === 'unique' || name === 'exists') && failures.some((f) => f.field === field)) continue;
        const message = check({ name, param, field, value, present, data, kind });
        if (message !== null) {
          failures.push({ field, rule: name, detail: fill(message, attr, param) });
          // Like Laravel: once a presence rule (required…) fails, the field's other rules are not run.
          if (IMPLICIT.has(name)) break;
        }
      }
    }
  }
  return failures;
}

function splitRule(rule: string): [string, string] {
  const i = rule.indexOf(':');
  return i === -1 ? [rule, ''] : [rule.slice(0, i), rule.slice(i + 1)];
}

function fill(template: string, attr: string, param: string): string {
  const params = param.split(',');
  return template
    .replace(/:attribute/gu, attr)
    .replace(/:min/gu, params[0] ?? '')
    .replace(/:max/gu, (template.includes(':min') ? params[1] : params[0]) ?? '')
    .replace(/:size/gu, params[0] ?? '')
    .replace(/:other/gu, (params[0] ?? '').replace(/_/gu, ' '))
    .replace(
      /:values/gu,
      template.includes(':other') ? params.slice(1).join(', ') : params.join(', ').replace(/_/gu, ' '),
    );
}

/** Returns the message template when the rule fails, null when it passes. */
function check({
  name,
  param,
  field,
  value,
  present,
  data,
  kind,
}: {
  name: string;
  param: string;
  field: string;
  value: unknown;
  present: boolean;
  data: Record<string, unknown>;
  kind: 'string' | 'numeric' | 'array';
}): string | null {
  const fail = (key = name) => MESSAGES[key] ?? `The :attribute is invalid.`;
  const params = param.split(',');
  switch (name) {
    case 'required':
    case 'filled':
      return isEmpty(value) ? fail() : null;
    case 'present':
      return present ? null : fail();
    case 'required_unless': {
      const other = getPath(data, params[0] ?? '');
      return params.slice(1).includes(String(other)) || !isEmpty(value) ? null : fail();
    }
    case 'required_with':
      return params.some((p) => !isEmpty(getPath(data, p))) && isEmpty(value) ? fail() : null;
    case 'required_without':
      return params.some((p) => isEmpty(getPath(data, p))) && isEmpty(value) ? fail() : null;
    case 'string':
      return typeof value === 'string' ? null : fail();
    case 'boolean':
      return [true, false, 1, 0, '1', '0'].includes(value as never) ? null : fail();
    case 'numeric':
      return isNumeric(value) ? null : fail();
    case 'integer':
      return isInteger(value) ? null : fail();
    case 'array':
      return value !== null && typeof value === 'object' ? null : fail();
    case 'email':
      return typeof value === 'string' && isEmail(value) ? null : fail();
    case 'uuid':
      return typeof value === 'string' && isUuid(value) ? null : fail();
    case 'alpha_dash':
      return typeof value === 'string' && /^[\p{L}\p{M}\p{N}_-]+$/u.test(value) ? null : fail();
    case 'alpha_num':
      return typeof value === 'string' && /^[\p{L}\p{M}\p{N}]+$/u.test(value) ? null : fail();
    case 'p_username':
      return typeof value === 'string' && isUsername(value) ? null : fail();
    case 'in':
      return params.includes(String(value)) ? null : fail();
    case 'not_in':
      return params.includes(String(value)) ? fail() : null;
    case 'regex': {
      const m = /^\/(.*)\/([a-z]*)$/su.exec(param);
      const re = m ? new RegExp(m[1] ?? '', (m[2] ?? '').replace('D', '')) : new RegExp(param);
      return typeof value === 'string' && re.test(value) ? null : fail();
    }
    case 'url':
      try {
        const u = new URL(String(value));
        return ['http:', 'https:'].includes(u.protocol) ? null : fail();
      } catch {
        return fail();
      }
    case 'confirmed': {
      return getPath(data, `${field}_confirmation`) === value ? null : fail();
    }
    case 'min':
    case 'max':
    case 'between':
    case 'size': {
      if (value === null || value === undefined) return null;
      if (kind === 'numeric' && !isNumeric(value)) return null;
      if (kind === 'array' && typeof value !== 'object') return null;
      const size = sizeOf(value, kind);
      const a = Number(params[0]);
      const b = Number(params[1]);
      const ok =
        name === 'min'
          ? size >= a
          : name === 'max'
            ? size <= a
            : name === 'size'
              ? size === a
              : size >= a && size <= b;
      return ok ? null : (SIZED[name]?.[kind] ?? fail());
    }
    case 'alpha':
      return typeof value === 'string' && /^[\p{L}\p{M}]+$/u.test(value) ? null : fail();
    case 'ip':
    case 'ipv4':
    case 'ipv6': {
      const v4 = typeof value === 'string' && IPV4.test(value);
      const v6 = typeof value === 'string' && value.includes(':') && IPV6.test(value);
      const ok = name === 'ipv4' ? v4 : name === 'ipv6' ? v6 : v4 || v6;
      return ok ? null : fail();
    }
    case 'json':
      try {
        JSON.parse(String(value));
        return typeof value === 'string' ? null : fail();
      } catch {
        return fail();
      }
    case 'digits':
    case 'digits_between': {
      const digits = /^\d+$/u.test(String(value)) ? String(value).length : -1;
      const a = Number(params[0]);
      const b = Number(params[1]);
      const ok = name === 'digits' ? digits === a : digits >= a && digits <= b;
      return ok ? null : fail();
    }
    case 'starts_with':
      return params.some((p) => String(value).startsWith(p)) ? null : fail();
    case 'ends_with':
      return params.some((p) => String(value).endsWith(p)) ? null : fail();
    case 'lowercase':
      return String(value) === String(value).toLowerCase() ? null : fail();
    case 'uppercase':
      return String(value) === String(value).toUpperCase() ? null : fail();
    default:
      // Egg files may carry Laravel rules we do not evaluate (dates, timezones…); the egg importer
      // checks their syntax, and nothing the daemon does depends on them, so they pass.
      return null;
  }
}
