import type { DaemonConfig } from '../config/config.ts';

/** `{{config.<dotted path>}}`, with an optional single space inside each brace pair. */
const CONFIG_PLACEHOLDER = /\{\{ ?config\.([A-Za-z0-9_.-]+) ?\}\}/g;

/**
 * The only `{{config.…}}` paths an egg may read (CVE-2026-52855: Wings handed out its whole
 * configuration, node token and key paths included). Each is something the server's users see
 * anyway: the daemon's name, its API port and TLS switch and upload limit (their browser talks to
 * it), the SFTP port (shown in the panel), the timezone (the server's TZ) and the address the server
 * reaches the host at. Any other path resolves like a missing one: the whole value becomes ''.
 */
export const EXPOSED_CONFIG_PATHS = [
  'app_name',
  'api.port',
  'api.ssl.enabled',
  'api.upload_limit',
  'system.timezone',
  'system.sftp.bind_port',
  'docker.network.interface',
] as const;

/**
 * The address a server reaches the host at (`{{config.docker.network.interface}}`; BungeeCord-style
 * eggs point their backends at it): the Docker bridge's address only when containers sit on a
 * bridge; servers of the `process` runtime and containers on the host network share the host's
 * network, so theirs is the loopback.
 */
function hostAddressForServers(config: unknown): unknown {
  const onBridge =
    at(config, 'runtime.driver') === 'docker' && at(config, 'docker.network.network_mode') !== 'host';
  return onBridge ? at(config, 'docker.network.interface') : '127.0.0.1';
}

/** Looks up a `{{config.…}}` path; undefined when the path is not exposed. */
export type ConfigLookup = (path: string) => string | undefined;

/** The exposed paths and their text: plain data, so it can be handed to the parser worker. */
export type ConfigValues = Record<string, string>;

const isUpper = (c: string): boolean => c >= 'A' && c <= 'Z';
const isSeparator = (c: string): boolean => c === '-' || /\s/.test(c);
const isLowerOrDigit = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

/**
 * `apiPort`, `APIPort`, `api-port` → `api_port` (each path segment of a placeholder). One pass: a
 * capital starts a word after a lower-case letter or digit, or before a lower-case letter when it
 * ends a run of capitals; runs of `-` and blanks become one `_`.
 */
export function snakeCase(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (isSeparator(c)) {
      if (i === 0 || !isSeparator(segment[i - 1]!)) out += '_';
      continue;
    }
    if (isUpper(c) && i > 0) {
      const prev = segment[i - 1]!;
      const next = segment[i + 1] ?? '';
      if (isLowerOrDigit(prev) || (isUpper(prev) && next >= 'a' && next <= 'z')) out += '_';
    }
    out += c.toLowerCase();
  }
  return out;
}

/** Any JSON value as the text written into a file (null and undefined as nothing). */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function at(tree: unknown, dotted: string): unknown {
  let node = tree;
  for (const key of dotted.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The exposed values of the daemon's configuration (keys as in Wings' config.yml). */
export function exposedConfigValues(config: DaemonConfig | Record<string, unknown>): ConfigValues {
  const out: ConfigValues = {};
  for (const p of EXPOSED_CONFIG_PATHS) {
    const v = p === 'docker.network.interface' ? hostAddressForServers(config) : at(config, p);
    if (v !== undefined && (v === null || typeof v !== 'object')) out[p] = valueText(v);
  }
  return out;
}

/** A lookup over exposed values: each segment of the asked path snake_cased, then matched whole. */
export function lookupIn(values: ConfigValues): ConfigLookup {
  return (dotted) => {
    const key = dotted.split('.').map(snakeCase).join('.');
    return Object.hasOwn(values, key) ? values[key] : undefined;
  };
}

/** A lookup over the daemon's configuration, limited to the exposed paths. */
export function configLookup(config: DaemonConfig | Record<string, unknown>): ConfigLookup {
  return lookupIn(exposedConfigValues(config));
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
