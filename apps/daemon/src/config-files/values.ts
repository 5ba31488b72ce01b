import type { DaemonConfig } from '../config/config.ts';

/** `{{config.<dotted path>}}`, with an optional single space inside each brace pair. */
const CONFIG_PLACEHOLDER = /\{\{ ?config\.([A-Za-z0-9_.-]+) ?\}\}/g;

/** Node secrets never handed to a server's files, whatever an egg asks for. */
const SECRET_PATHS = new Set(['token', 'token_id']);

/**
 * Values the daemon's configuration does not hold but eggs expect (Appendix A). Servers of the
 * `process` runtime share the host's network, so the address Wings gives its Docker bridge is the
 * loopback here (BungeeCord-style eggs point their backends at it).
 */
const RUNTIME_DEFAULTS: Record<string, unknown> = { docker: { network: { interface: '127.0.0.1' } } };

/** Looks up a `{{config.…}}` path; undefined when the path does not exist. */
export type ConfigLookup = (path: string) => string | undefined;

/** `apiPort`, `APIPort`, `api-port` → `api_port` (each path segment of a placeholder). */
export function snakeCase(segment: string): string {
  return segment
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function merged(base: unknown, defaults: unknown): unknown {
  if (!isObject(defaults)) return base === undefined ? defaults : base;
  if (base !== undefined && !isObject(base)) return base;
  const out: Record<string, unknown> = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(defaults)) out[k] = merged(out[k], v);
  return out;
}

/** Any JSON value as the text written into a file (null and undefined as nothing). */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A lookup over the daemon's configuration serialised as JSON (keys as in Wings' config.yml). */
export function configLookup(config: DaemonConfig | Record<string, unknown>): ConfigLookup {
  const tree = merged(JSON.parse(JSON.stringify(config)) as unknown, RUNTIME_DEFAULTS);
  return (dotted) => {
    const parts = dotted.split('.').map(snakeCase);
    if (parts.some((p) => p === '') || SECRET_PATHS.has(parts[0]!)) return undefined;
    let node: unknown = tree;
    for (const p of parts) {
      if (Array.isArray(node) && /^\d+$/.test(p)) node = node[Number(p)];
      else if (isObject(node) && Object.hasOwn(node, p)) node = node[p];
      else return undefined;
      if (node === undefined) return undefined;
    }
    return valueText(node);
  };
}

/**
 * The text a rule writes (all parsers but `file`): `{{config.<path>}}` placeholders are replaced by
 * the configuration's values; when one names a path that does not exist, the whole value is ''.
 */
export function resolveText(replaceWith: unknown, lookup: ConfigLookup): string {
  if (typeof replaceWith !== 'string') return valueText(replaceWith);
  let missing = false;
  const out = replaceWith.replace(CONFIG_PLACEHOLDER, (_m, p: string) => {
    const v = lookup(p);
    if (v === undefined) missing = true;
    return v ?? '';
  });
  return missing ? '' : out;
}

const GO_BOOL: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * The typed value written by the `yaml` and `json` parsers: a boolean when `replace_with` was a JSON
 * boolean, a number when the text is an integer, else the text.
 */
export function typedValue(replaceWith: unknown, text: string): string | number | boolean {
  if (typeof replaceWith === 'boolean' && text in GO_BOOL) return GO_BOOL[text]!;
  if (/^[+-]?\d+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  return text;
}

/**
 * An `if_value: "regex:…"` pattern (Go RE2 syntax) as a JavaScript RegExp: `(?P<name>` becomes
 * `(?<name>` and leading inline flags (`(?i)`, `(?s)`, `(?m)`, `(?is)`…) become RegExp flags.
 * Throws on a pattern JavaScript cannot compile.
 */
export function compileGoRegex(pattern: string): RegExp {
  let src = pattern.replace(/\(\?P</g, '(?<');
  let flags = 'g';
  const lead = /^\(\?([ims]+)\)/.exec(src);
  if (lead) {
    for (const f of new Set(lead[1])) flags += f;
    src = src.slice(lead[0].length);
  }
  return new RegExp(src, flags);
}

/**
 * Go's `Regexp.Expand` template: `$1`, `${1}`, `$name`, `${name}` (the longest run of letters,
 * digits and `_`, so `$1x` is the group named `1x`), `$$` for `$`; unknown groups expand to nothing;
 * a `$` not followed by a name is kept.
 */
export function expandTemplate(template: string, m: RegExpExecArray): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '$') {
      out += c;
      continue;
    }
    const rest = template.slice(i + 1);
    if (rest.startsWith('$')) {
      out += '$';
      i++;
      continue;
    }
    const braced = /^\{([A-Za-z0-9_]+)\}/.exec(rest);
    const bare = /^[A-Za-z0-9_]+/.exec(rest);
    const name = braced ? braced[1]! : bare ? bare[0] : null;
    if (name === null) {
      out += '$';
      continue;
    }
    i += braced ? braced[0].length : name.length;
    const group = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
    out += group ?? '';
  }
  return out;
}

/** Every match of `re` in `text` replaced by the expansion of `template` (Go's ReplaceAllString). */
export function regexReplace(re: RegExp, text: string, template: string): string {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  let out = '';
  let last = 0;
  for (let m = g.exec(text); m; m = g.exec(text)) {
    out += text.slice(last, m.index) + expandTemplate(template, m);
    last = m.index + m[0].length;
    if (m[0].length === 0) g.lastIndex++;
  }
  return out + text.slice(last);
}
