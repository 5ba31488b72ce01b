/**
 * The environment of the local daemon, built from an allow-list: the panel's environment holds
 * APP_KEY, DATABASE_URL, mail and reCAPTCHA credentials, which the daemon does not need and must not
 * hand on (its servers, install scripts and crash logs are one mistake away from them). The daemon
 * reads only LOG_LEVEL, LOG_FORMAT and TZ itself; the rest is what the processes it runs (tsx, node,
 * bubblewrap, tar…) expect of any POSIX environment.
 *
 * NODE_OPTIONS is left out on purpose: it is set for the panel's own Node (heap size, --require of
 * an APM agent with the panel's credentials) and would load the same code into the daemon.
 */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TERM',
]);
const ALLOWED_PREFIXES = ['LC_'];
/** Names that must never pass, whatever a future allow-list entry says. */
const SECRET_LIKE = /KEY|SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|DATABASE_URL|^MAIL_|^SMTP/iu;

export function daemonEnvironment(
  source: NodeJS.ProcessEnv,
  own: { logLevel: string; logFormat?: string },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || SECRET_LIKE.test(name)) continue;
    if (ALLOWED.has(name) || ALLOWED_PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
  }
  env.LOG_LEVEL = own.logLevel;
  if (own.logFormat) env.LOG_FORMAT = own.logFormat;
  return env;
}
