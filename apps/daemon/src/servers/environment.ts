import {
  forbiddenEnvironmentName,
  placeholderValuesOf,
  resolvePlaceholders,
  type RemoteServer,
  type ServerSettings,
} from '@talon/shared';

/** Fixed variables every server and installer gets; egg variables may not override them. */
const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function envText(v: string | number | boolean | null): string {
  // Numbers keep their natural form (Wings renders them with six decimals: not copied).
  if (v === null) return '';
  return String(v);
}

/** A name a shell can export; the panel allows any `\w+`, so `1ST` can arrive too. */
const EXPORTABLE = /^[A-Z_][A-Z0-9_]*$/u;

/** Why an (upper-cased) egg variable name cannot be passed on, or null when it can. */
function refusal(name: string): string | null {
  if (!EXPORTABLE.test(name)) return 'it is not a valid environment variable name';
  const why = forbiddenEnvironmentName(name);
  return why ? `${why}; Talon panels refuse this name` : null;
}

/**
 * The process environment (Wings protocol §6.4, first occurrence wins): TZ, STARTUP, SERVER_MEMORY,
 * SERVER_IP, SERVER_PORT, then the egg variables upper-cased, plus what a shell needs (HOME, PATH,
 * USER, TERM). The daemon's own environment is never inherited: it may hold secrets. Names the
 * dynamic loader or a shell reads (LD_PRELOAD…, packages/shared host-environment.ts) are dropped,
 * whatever panel sent them: `onRefused` hears of each, to say so where the owner looks.
 */
export function buildEnvironment(
  cfg: RemoteServer,
  opts: { timezone: string; home: string; onRefused?: (name: string, why: string) => void },
): Record<string, string> {
  const s = cfg.settings;
  const env: Record<string, string> = {
    TZ: opts.timezone,
    STARTUP: s.invocation,
    SERVER_MEMORY: String(s.build.memory_limit),
    SERVER_IP: s.allocations?.default.ip ?? '0.0.0.0',
    SERVER_PORT: String(s.allocations?.default.port ?? 0),
  };
  for (const [k, v] of Object.entries(s.environment)) {
    const key = k.toUpperCase();
    const why = refusal(key);
    if (why) opts.onRefused?.(key, why);
    else if (!(key in env)) env[key] = envText(v);
  }
  env.HOME = opts.home;
  env.USER = 'container';
  env.PATH = BASE_PATH;
  env.TERM = 'xterm';
  // No TTY here: ask common runtimes to flush console output line by line.
  env.PYTHONUNBUFFERED = '1';
  return env;
}

/**
 * Expand the startup command: first the egg placeholders of either panel (`{{server.build.default.port}}`,
 * Pelican's `{{server.allocations.default.port}}`, `{{server.environment.X}}`…) from the server's
 * settings, then `{{VAR}}` and `${VAR}` from the environment, as the yolks images' entrypoint does;
 * unknown variables become empty strings (`onUnknown` hears of unknown egg placeholders).
 */
export function substituteStartup(
  invocation: string,
  env: Record<string, string>,
  settings?: ServerSettings,
  onUnknown?: (placeholder: string) => void,
): string {
  // `{{env.X}}` sees the process environment (TZ, STARTUP… too), as it always did.
  const values = settings && placeholderValuesOf(settings);
  const resolved = values
    ? resolvePlaceholders(invocation, { ...values, env: { ...values.env, ...env } }, onUnknown)
    : invocation;
  return resolved
    .replace(
      /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g,
      (_, name: string) => env[name.replace(/^env\./, '')] ?? '',
    )
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? '');
}
