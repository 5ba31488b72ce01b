/**
 * The `{{server.…}}` and `{{env.…}}` placeholders of egg config files and start-up commands, in the
 * incumbent's spelling (`{{server.build.default.port}}`, `{{env.X}}`, reference §6.3) and Pelican's
 * (`{{server.allocations.default.port}}`, `{{server.environment.X}}`). One table, used by the
 * panel (config files), the daemon (start-up command) and the importer (which warns about any
 * placeholder nobody knows, instead of letting it become an empty string without a trace).
 * `{{config.…}}` belongs to the daemon's own configuration and is not handled here.
 */
import type { ServerSettings } from '../wings/server-config.ts';

/** The server values a placeholder can name. */
export interface PlaceholderValues {
  ip: string;
  port: string;
  memory: string;
  swap: string;
  io: string;
  cpu: string;
  disk: string;
  threads: string;
  image: string;
  oomDisabled: string;
  uuid: string;
  suspended: string;
  skipScripts: string;
  /** the server's environment (egg variables) by name */
  env: Record<string, string>;
}

type Field = Exclude<keyof PlaceholderValues, 'env'>;

/** Every fixed placeholder path → the value it names. */
const FIXED: Record<string, Field> = {
  'server.build.default.ip': 'ip',
  'server.build.default.port': 'port',
  'server.allocations.default.ip': 'ip',
  'server.allocations.default.port': 'port',
  'server.build.memory': 'memory',
  'server.build.memory_limit': 'memory',
  'server.build.swap': 'swap',
  'server.build.io': 'io',
  'server.build.io_weight': 'io',
  'server.build.cpu': 'cpu',
  'server.build.cpu_limit': 'cpu',
  'server.build.disk': 'disk',
  'server.build.disk_space': 'disk',
  'server.build.threads': 'threads',
  'server.build.image': 'image',
  'server.container.image': 'image',
  'server.build.oom_disabled': 'oomDisabled',
  'server.uuid': 'uuid',
  'server.suspended': 'suspended',
  'server.service.skip_scripts': 'skipScripts',
  'server.build.env.SERVER_MEMORY': 'memory',
  'server.build.env.SERVER_IP': 'ip',
  'server.build.env.SERVER_PORT': 'port',
  'server.environment.SERVER_MEMORY': 'memory',
  'server.environment.SERVER_IP': 'ip',
  'server.environment.SERVER_PORT': 'port',
};

/** The variables the daemon itself sets (reference §6.4), whatever prefix names them. */
const DAEMON_ENV: Record<string, Field> = { SERVER_PORT: 'port', SERVER_IP: 'ip', SERVER_MEMORY: 'memory' };

/** Prefixes followed by an environment variable's name. */
const ENV_PREFIXES = ['env.', 'server.build.env.', 'server.environment.', 'server.build.environment.'];

/** `{{server.…}}` / `{{env.…}}`, with optional spaces inside the braces. */
const PLACEHOLDER = /\{\{\s*((?:server|env)\.[\w.-]+)\s*\}\}/gu;

function envName(path: string): string | null {
  const prefix = ENV_PREFIXES.find((p) => path.startsWith(p));
  if (!prefix) return null;
  const name = path.slice(prefix.length);
  return /^\w+$/u.test(name) ? name : null;
}

/** Whether the panel and daemon know a placeholder path (`server.allocations.default.port`). */
export function isKnownPlaceholder(path: string): boolean {
  return path in FIXED || envName(path) !== null;
}

/** The value of one placeholder path, or undefined when nobody knows it. */
export function placeholderValue(path: string, values: PlaceholderValues): string | undefined {
  const field = FIXED[path];
  if (field) return values[field];
  const name = envName(path);
  if (name === null) return undefined;
  const daemonSet = DAEMON_ENV[name.toUpperCase()];
  if (daemonSet) return values[daemonSet];
  return values.env[name] ?? values.env[name.toUpperCase()] ?? '';
}

/**
 * Replaces every known placeholder in a text. An unknown one becomes '' as in the incumbent (the
 * importer has warned about it) and is reported through `onUnknown`.
 */
export function resolvePlaceholders(
  text: string,
  values: PlaceholderValues,
  onUnknown?: (placeholder: string) => void,
): string {
  return text.replace(PLACEHOLDER, (_m, path: string) => {
    const value = placeholderValue(path, values);
    if (value === undefined) onUnknown?.(path);
    return value ?? '';
  });
}

/** The placeholder paths in a text that nobody knows, in order, each once. */
export function unknownPlaceholders(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!isKnownPlaceholder(m[1]!)) found.add(m[1]!);
  return [...found];
}

function text(v: string | number | boolean | null | undefined): string {
  return v === null || v === undefined ? '' : String(v);
}

/** The values of a server, from the configuration document the daemon receives (reference §6.1). */
export function placeholderValuesOf(settings: ServerSettings): PlaceholderValues {
  const build = settings.build;
  return {
    ip: settings.allocations?.default.ip ?? '',
    port: text(settings.allocations?.default.port),
    memory: text(build.memory_limit),
    swap: text(build.swap),
    io: text(build.io_weight),
    cpu: text(build.cpu_limit),
    disk: text(build.disk_space),
    threads: text(build.threads),
    image: settings.container?.image ?? '',
    oomDisabled: text(build.oom_disabled),
    uuid: settings.uuid,
    suspended: text(settings.suspended),
    skipScripts: text(settings.skip_egg_scripts),
    env: Object.fromEntries(Object.entries(settings.environment).map(([k, v]) => [k, text(v)])),
  };
}
