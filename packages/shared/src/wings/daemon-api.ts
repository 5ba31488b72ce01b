import { z } from 'zod';
import { POWER_ACTIONS, SERVER_STATES } from './events.ts';
import { nodeRuntimeSchema } from './system-v2.ts';

/**
 * What a daemon answers the panel over HTTP (Wings protocol §2). The daemon builds these shapes and
 * the panel parses every answer with them, so a daemon (ours or a real Wings) that sends something
 * else is reported, not trusted. Objects are loose: a newer daemon may add fields.
 */

export const serverStateSchema = z.enum(SERVER_STATES);
export const powerActionSchema = z.enum(POWER_ACTIONS);

/** The `stats` websocket payload, also `utilization` in `GET /api/servers/:server`. */
export const serverStatsSchema = z.looseObject({
  memory_bytes: z.number(),
  memory_limit_bytes: z.number(),
  cpu_absolute: z.number(),
  network: z.looseObject({ rx_bytes: z.number(), tx_bytes: z.number() }),
  /** Milliseconds since the process started; 0 when offline. */
  uptime: z.number(),
  state: serverStateSchema,
  disk_bytes: z.number(),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;

/**
 * `GET /api/servers/:server` (and each entry of `GET /api/servers`). `configuration` echoes the
 * panel's own server document back; the panel does not read it, so it is not checked here.
 */
export const daemonServerSchema = z.looseObject({
  state: serverStateSchema,
  is_suspended: z.boolean(),
  utilization: serverStatsSchema,
  configuration: z.unknown().optional(),
});
export type DaemonServer = z.infer<typeof daemonServerSchema>;

/** Wings' file object (`files/list-directory`, `files/compress`, `files/pull`), protocol §2.2. */
export const daemonFileObjectSchema = z.looseObject({
  name: z.string(),
  /** RFC 3339. */
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
  /** Go's `fs.FileMode.String()`, e.g. `-rw-r--r--`. */
  mode: z.string(),
  /** Octal permission digits, e.g. `644`. */
  mode_bits: z.string(),
  size: z.number(),
  directory: z.boolean(),
  file: z.boolean(),
  symlink: z.boolean(),
  mime: z.string(),
});
export type DaemonFileObject = z.infer<typeof daemonFileObjectSchema>;
export const daemonFileListSchema = z.array(daemonFileObjectSchema);

/** `GET /api/system`. `runtime` is our extension (real Wings does not send it). */
export const systemInfoSchema = z.looseObject({
  architecture: z.string(),
  cpu_count: z.number().int(),
  kernel_version: z.string(),
  os: z.string(),
  version: z.string(),
  runtime: nodeRuntimeSchema.optional(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;
