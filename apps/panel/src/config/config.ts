import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting the panel reads from the environment. Parsed once at boot; every problem is reported
 * together so an operator fixes them in one go. README.md documents each variable.
 */
/** `a, b` → `['a', 'b']` (empty entries dropped). */
function networkList(value: string): string[] {
  return value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/** `10.1.0.0/16`, `fd00::/8`: an address and a prefix length that fits its family. */
function isCidr(value: string): boolean {
  const [address = '', bits = '', ...rest] = value.split('/');
  const family = isIP(address);
  return (
    rest.length === 0 && family !== 0 && /^\d{1,3}$/u.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
  );
}

/** The Docker engine addresses the daemon can use (its `docker.host`). */
const DOCKER_ADDRESS = /^(unix:\/\/\/.+|(tcp|https?):\/\/[^/]+\/?)$/u;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
/** An end of the client allocation range: unset or empty means no range. */
const rangePort = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.coerce
    .number()
    .int()
    .min(1025, 'must be a port above 1024')
    .max(65535, 'must be at most 65535')
    .optional(),
);

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    APP_URL: optional,
    APP_NAME: z.string().min(1).default('Talon'),
    APP_TIMEZONE: z.string().default('UTC'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optional.refine((v) => v === undefined || /^(postgres(ql)?|sqlite):/u.test(v), {
      message: 'must start with postgres://, postgresql:// or sqlite:',
    }),
    APP_KEY: optional.refine((v) => v === undefined || decodeKey(v) !== null, {
      message: 'must be 32 bytes, written as base64:<44 chars> or 64 hex characters',
    }),
    MAIL_HOST: optional,
    MAIL_PORT: z.coerce.number().int().min(1).max(65535).default(587),
    MAIL_USERNAME: optional,
    MAIL_PASSWORD: optional,
    MAIL_ENCRYPTION: z.enum(['tls', 'ssl', 'none', '']).default('tls'),
    MAIL_FROM_ADDRESS: z.string().default('no-reply@localhost'),
    MAIL_FROM_NAME: optional,
    RECAPTCHA_ENABLED: bool.default(false),
    RECAPTCHA_SITE_KEY: z.string().default(''),
    RECAPTCHA_SECRET_KEY: z.string().default(''),
    RECAPTCHA_VERIFY_URL: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
    ANALYTICS_ID: optional,
    TRUSTED_PROXIES: z.string().default(''),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
    SESSION_LIFETIME: z.coerce.number().int().min(1).default(720),
    APP_2FA_REQUIRED: z.enum(['0', '1', '2']).optional(),
    APP_API_CLIENT_RATELIMIT: z.coerce.number().int().min(1).default(720),
    APP_API_APPLICATION_RATELIMIT: z.coerce.number().int().min(1).default(240),
    APP_ACTIVITY_HIDE_ADMIN: bool.default(false),
    PTERODACTYL_FILES_MAX_EDIT_SIZE: z.coerce
      .number()
      .int()
      .min(1)
      .default(4 * 1024 * 1024),
    PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: bool.default(false),
    REMOTE_AVATARS: bool.default(false),
    PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: rangePort,
    PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: rangePort,
    PTERODACTYL_CLIENT_DATABASES_ENABLED: bool.default(true),
    PTERODACTYL_CLIENT_DATABASES_ALLOW_RANDOM: bool.default(true),
    HASHIDS_SALT: z.string().default(''),
    HASHIDS_LENGTH: z.coerce.number().int().min(0).default(8),
    HASHIDS_ALPHABET: z
      .string()
      .min(16)
      .default('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890'),
    LOCAL_DAEMON: bool.default(true),
    LOCAL_DAEMON_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
    LOCAL_SFTP_PORT: z.coerce.number().int().min(1).max(65535).default(2022),
    LOCAL_ALLOCATIONS: z
      .string()
      .regex(/^\d{1,5}-\d{1,5}$/u, 'must be a port range such as 25565-25599')
      .default('25565-25599'),
    LOCAL_CONSOLE_THROTTLE_LINES: z.coerce.number().int().min(1).default(2000),
    LOCAL_RUNTIME: z.enum(['process', 'docker'], { message: 'must be process or docker' }).default('process'),
    // Read only with LOCAL_RUNTIME=docker (checked below): the Docker CLI's own DOCKER_HOST values,
    // such as ssh://, must not stop a panel that runs no containers.
    DOCKER_HOST: optional,
    LOCAL_REMOTE_DOWNLOAD_NETWORKS: z
      .string()
      .default('')
      .refine(
        (v) => networkList(v).every(isCidr),
        'must be networks in CIDR notation separated by commas, such as 192.168.10.0/24,fd00:1::/64',
      ),
    BACKUP_THROTTLE_LIMIT: z.coerce.number().int().min(1).default(2),
    BACKUP_THROTTLE_PERIOD: z.coerce.number().int().min(0).default(600),
    BACKUP_PRUNE_AGE: z.coerce.number().int().min(1).default(360),
    PTERODACTYL_PER_SCHEDULE_TASK_LIMIT: z.coerce.number().int().min(1).default(10),
    SCHEDULE_LEASE_SECONDS: z.coerce.number().int().min(5).default(60),
    SCHEDULE_TICK_SECONDS: z.coerce.number().min(0.2).default(5),
  })
  .superRefine((v, ctx) => {
    if (v.RECAPTCHA_ENABLED && (!v.RECAPTCHA_SITE_KEY || !v.RECAPTCHA_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['RECAPTCHA_SECRET_KEY'],
        message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are required when RECAPTCHA_ENABLED is true',
      });
    }
    if (v.LOCAL_RUNTIME === 'docker' && v.DOCKER_HOST && !DOCKER_ADDRESS.test(v.DOCKER_HOST)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DOCKER_HOST'],
        message:
          'must be unix:///path/to/docker.sock, tcp://host:port or http(s)://host:port when LOCAL_RUNTIME is docker',
      });
    }
    const start = v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START;
    const end = v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END;
    if (start !== undefined && end !== undefined && start > end) {
      ctx.addIssue({
        code: 'custom',
        path: ['PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END'],
        message: 'must not be below PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START',
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  appName: string;
  timezone: string;
  dataDir: string;
  databaseUrl: string;
  /** 32 bytes: encrypts secrets at rest and signs cookies */
  appKey: Buffer;
  mail: {
    host?: string;
    port: number;
    username?: string;
    password?: string;
    encryption: 'tls' | 'ssl' | 'none';
    from: { address: string; name: string };
  };
  recaptcha: { enabled: boolean; siteKey: string; secretKey: string; verifyUrl: string };
  analyticsId?: string;
  trustedProxies: string[];
  logLevel: string;
  /** unset: readable lines on a terminal, JSON otherwise (log collectors) */
  logFormat?: 'pretty' | 'json';
  sessionLifetimeMinutes: number;
  /** null when the database setting decides */
  twoFactorRequired: 0 | 1 | 2 | null;
  rateLimits: { client: number; application: number };
  /** bytes: larger files are not opened in the file editor (and not read through the panel) */
  filesMaxEditSize: number;
  /** APP_ACTIVITY_HIDE_ADMIN: server activity lists leave out root admins who have no place on the server */
  activityHideAdmin: boolean;
  /**
   * Server users adding allocations themselves: allowed at all, and the ports the panel may create
   * on the primary allocation's IP when the node has none free there (null: none).
   */
  clientAllocations: { enabled: boolean; range: [number, number] | null };
  /**
   * REMOTE_AVATARS: pages show Gravatar pictures (the browser asks gravatar.com, sending it each
   * user's email hash). Off by default: initials, and no request leaves the panel's own address.
   */
  remoteAvatars: boolean;
  /**
   * Server users creating databases themselves (`enabled`), and on any database host when none
   * serves the server's node (`allowRandom`).
   */
  clientDatabases: { enabled: boolean; allowRandom: boolean };
  /** Hashids settings of the client API's database ids (reference §1.6): ids stay stable across panels. */
  hashids: { salt: string; length: number; alphabet: string };
  /** the embedded default: a daemon for this machine, started by the panel */
  localDaemon: {
    enabled: boolean;
    port: number;
    sftpPort: number;
    ports: [number, number];
    /** Console lines per 100 ms the local daemon passes on before it throttles. */
    consoleThrottleLines: number;
    /** Internal networks (CIDR) the local daemon's remote downloads may reach (`files/pull`). */
    remoteDownloadNetworks: string[];
    /**
     * LOCAL_RUNTIME: how the local daemon runs servers (its `runtime.driver`): `process`
     * (bubblewrap, zero setup) or `docker` (containers in host network mode, on DOCKER_HOST's engine
     * or the default socket).
     */
    runtime: 'process' | 'docker';
    /** DOCKER_HOST: the engine of the local daemon's `docker` runtime; null = the default socket. */
    dockerHost: string | null;
  };
  /**
   * Backups: at most `throttleLimit` non-failed backups per server within `throttlePeriodSeconds`
   * (0 disables the throttle); failed and unfinished ones older than `pruneAgeMinutes` are pruned.
   */
  backups: { throttleLimit: number; throttlePeriodSeconds: number; pruneAgeMinutes: number };
  /**
   * Schedules: at most `taskLimit` tasks each; the runner looks for due schedules every
   * `tickSeconds` and holds a run's claim for `leaseSeconds` past its last renewal (a panel that
   * dies mid-run leaves it to another runner after that).
   */
  schedules: { taskLimit: number; tickSeconds: number; leaseSeconds: number };
  /**
   * The variables the environment really set (not empty), as opposed to defaulted: a setting an
   * admin may also change from the Settings screen is read-only there when its variable is set.
   */
  fromEnvironment: ReadonlySet<string>;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function decodeKey(value: string): Buffer | null {
  const buf = value.startsWith('base64:')
    ? Buffer.from(value.slice(7), 'base64')
    : /^[0-9a-f]{64}$/iu.test(value)
      ? Buffer.from(value, 'hex')
      : null;
  return buf?.length === 32 ? buf : null;
}

/** Reads the key kept in DATA_DIR, creating it on first start. */
function loadOrCreateKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'app.key');
  if (existsSync(file)) {
    const key = decodeKey(readFileSync(file, 'utf8').trim());
    if (!key) throw new ConfigError([`${file} does not hold a valid key`]);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, `base64:${key.toString('base64')}\n`, { mode: 0o600 });
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const v = parsed.data;
  const dataDir = path.resolve(v.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const appKey = v.APP_KEY ? (decodeKey(v.APP_KEY) as Buffer) : loadOrCreateKey(dataDir);
  return {
    port: v.PORT,
    host: v.HOST,
    appUrl: (v.APP_URL ?? `http://localhost:${v.PORT}`).replace(/\/+$/u, ''),
    appName: v.APP_NAME,
    timezone: v.APP_TIMEZONE,
    dataDir,
    databaseUrl: v.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'panel.sqlite')}`,
    appKey,
    mail: {
      host: v.MAIL_HOST,
      port: v.MAIL_PORT,
      username: v.MAIL_USERNAME,
      password: v.MAIL_PASSWORD,
      encryption: v.MAIL_ENCRYPTION === '' ? 'none' : v.MAIL_ENCRYPTION,
      from: { address: v.MAIL_FROM_ADDRESS, name: v.MAIL_FROM_NAME ?? v.APP_NAME },
    },
    recaptcha: {
      enabled: v.RECAPTCHA_ENABLED,
      siteKey: v.RECAPTCHA_SITE_KEY,
      secretKey: v.RECAPTCHA_SECRET_KEY,
      verifyUrl: v.RECAPTCHA_VERIFY_URL,
    },
    analyticsId: v.ANALYTICS_ID,
    trustedProxies: v.TRUSTED_PROXIES.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    sessionLifetimeMinutes: v.SESSION_LIFETIME,
    twoFactorRequired: v.APP_2FA_REQUIRED === undefined ? null : (Number(v.APP_2FA_REQUIRED) as 0 | 1 | 2),
    rateLimits: { client: v.APP_API_CLIENT_RATELIMIT, application: v.APP_API_APPLICATION_RATELIMIT },
    filesMaxEditSize: v.PTERODACTYL_FILES_MAX_EDIT_SIZE,
    activityHideAdmin: v.APP_ACTIVITY_HIDE_ADMIN,
    clientAllocations: {
      enabled: v.PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED,
      range:
        v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START !== undefined &&
        v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END !== undefined
          ? [v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START, v.PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END]
          : null,
    },
    remoteAvatars: v.REMOTE_AVATARS,
    clientDatabases: {
      enabled: v.PTERODACTYL_CLIENT_DATABASES_ENABLED,
      allowRandom: v.PTERODACTYL_CLIENT_DATABASES_ALLOW_RANDOM,
    },
    hashids: { salt: v.HASHIDS_SALT, length: v.HASHIDS_LENGTH, alphabet: v.HASHIDS_ALPHABET },
    localDaemon: {
      enabled: v.LOCAL_DAEMON,
      port: v.LOCAL_DAEMON_PORT,
      sftpPort: v.LOCAL_SFTP_PORT,
      ports: v.LOCAL_ALLOCATIONS.split('-').map(Number) as [number, number],
      consoleThrottleLines: v.LOCAL_CONSOLE_THROTTLE_LINES,
      remoteDownloadNetworks: networkList(v.LOCAL_REMOTE_DOWNLOAD_NETWORKS),
      runtime: v.LOCAL_RUNTIME,
      dockerHost: v.LOCAL_RUNTIME === 'docker' ? (v.DOCKER_HOST ?? null) : null,
    },
    backups: {
      throttleLimit: v.BACKUP_THROTTLE_LIMIT,
      throttlePeriodSeconds: v.BACKUP_THROTTLE_PERIOD,
      pruneAgeMinutes: v.BACKUP_PRUNE_AGE,
    },
    schedules: {
      taskLimit: v.PTERODACTYL_PER_SCHEDULE_TASK_LIMIT,
      tickSeconds: v.SCHEDULE_TICK_SECONDS,
      leaseSeconds: v.SCHEDULE_LEASE_SECONDS,
    },
    fromEnvironment: explicitlySet(env),
  };
}

/** The panel's variables that `env` sets to something (an empty value counts as unset, as above). */
function explicitlySet(env: NodeJS.ProcessEnv): ReadonlySet<string> {
  const known = Object.keys(schema.shape);
  return new Set(known.filter((name) => (env[name] ?? '') !== ''));
}
