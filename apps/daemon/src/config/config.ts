import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isCidr } from '../net/address-policy.ts';

/** A Docker network mode: `host`, `bridge` or a network's name (never `container:<id>` or `none`). */
const networkName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/u, 'must be host, bridge or the name of a Docker network')
  .refine((v) => v !== 'none', 'none would leave servers without a network; use host or a bridge network');

/**
 * The `docker` runtime's settings, with Wings' key names and defaults (reference Appendix A) where
 * Wings has the key. `host` and `user` are ours: Wings always uses the local socket and its
 * `system.user`.
 */
const dockerSchema = z.object({
  /**
   * The engine: `unix:///path/to/docker.sock`, `tcp://host:port` or `http(s)://host:port`. Empty:
   * `DOCKER_HOST` of the daemon's environment, else `unix:///var/run/docker.sock`.
   */
  host: z
    .string()
    .refine(
      (v) => v === '' || /^(unix:\/\/\/.+|(tcp|https?):\/\/[^/]+\/?)$/u.test(v),
      'must be unix:///path/to/docker.sock, tcp://host:port or http(s)://host:port',
    )
    .default(''),
  network: z
    .object({
      /** Network containers join; `host` shares the node's network (the panel's local node). */
      network_mode: networkName.default('talon_nw'),
      /** The bridge network the daemon creates when missing (when `network_mode` is not host). */
      name: networkName.default('talon_nw'),
      /** Address allocations on 127.0.0.1 are published on in bridge mode, and `{{config.docker.network.interface}}`. */
      interface: z.string().default('172.18.0.1'),
      dns: z.array(z.string()).default(['1.1.1.1', '1.0.0.1']),
    })
    .prefault({}),
  /** Registry host (or image prefix) → credentials for pulls, e.g. `{"ghcr.io": {...}}`. */
  registries: z
    .record(z.string().min(1), z.object({ username: z.string(), password: z.string() }))
    .default({}),
  /** MB of the tmpfs mounted at `/tmp` in every container. */
  tmpfs_size: z.number().int().min(1).default(100),
  /** Highest number of processes/threads per server container. */
  container_pid_limit: z.number().int().min(1).default(512),
  /** Least memory (MB) and CPU (%) an install container gets; 0 CPU = unlimited. */
  installer_limits: z
    .object({
      memory: z.number().int().min(0).default(1024),
      cpu: z.number().int().min(0).default(100),
    })
    .prefault({}),
  /** Identity containers run as; unset: `runtime.uid`/`runtime.gid` (owner of the server files). */
  user: z.object({ uid: z.number().int().min(1), gid: z.number().int().min(1) }).optional(),
});

/**
 * The daemon's configuration file: the subset of Wings' `config.yml` (Appendix A) that the process
 * runtime uses, written as JSON (keys identical to Wings' YAML keys, so the panel's
 * node-configuration document can be written out as-is). Unknown keys are ignored so a full Wings
 * document is accepted too.
 */
export const daemonConfigSchema = z.object({
  app_name: z.string().default('Talon'),
  debug: z.boolean().default(false),
  uuid: z.string().default(''),
  token_id: z.string().min(1),
  token: z.string().min(1),
  api: z
    .object({
      host: z.string().default('0.0.0.0'),
      port: z.number().int().min(0).max(65535).default(8080),
      ssl: z
        .object({
          enabled: z.boolean().default(false),
          cert: z.string().default(''),
          key: z.string().default(''),
        })
        .default({ enabled: false, cert: '', key: '' }),
      upload_limit: z.number().default(100),
      /** Most `files` parts in one signed-URL upload request. */
      upload_max_files: z.number().int().min(1).default(100),
      /** Most MiB in one upload request (all files together); never below `upload_limit`. */
      upload_request_limit: z.number().min(1).default(1024),
      /** Accepted `aud` values of websocket JWTs; empty = not checked (the panel sends the node URL). */
      jwt_audience: z.array(z.string()).default([]),
      /** Refuse `files/pull` altogether (Wings' key). */
      disable_remote_download: z.boolean().default(false),
      remote_download: z
        .object({
          /**
           * Networks (CIDR) a pull may reach although they are internal (loopback, private,
           * link-local…): e.g. a mirror on the LAN. Empty: only public addresses.
           */
          allowed_networks: z
            .array(z.string().refine(isCidr, 'must be a network in CIDR notation, e.g. 10.1.0.0/16'))
            .default([]),
          /** Most redirects one pull follows (each one checked again). */
          max_redirects: z.number().int().min(0).max(20).default(5),
          /** Most seconds one pull may take, from the request to the last byte (Wings: 12 h). */
          timeout: z
            .number()
            .int()
            .min(1)
            .default(12 * 3600),
        })
        .prefault({}),
    })
    .prefault({}),
  system: z
    .object({
      root_directory: z.string().default('/var/lib/talon'),
      log_directory: z.string().default('/var/log/talon'),
      data: z.string().default('/var/lib/talon/volumes'),
      tmp_directory: z.string().default('/tmp/talon'),
      timezone: z.string().default(process.env.TZ ?? 'UTC'),
      disk_check_interval: z.number().int().min(0).default(150),
      websocket_log_count: z.number().int().min(1).default(150),
      /** Most bytes one decompression may write, with or without a server disk limit. */
      decompress_max_bytes: z
        .number()
        .int()
        .min(1)
        .default(10 * 1024 ** 3),
      /** Most entries (files, directories, links) one archive may hold to be decompressed. */
      decompress_max_entries: z.number().int().min(1).default(100_000),
      /** Where local backups are kept (`<uuid>.tar.gz`), outside every server's directory. */
      backup_directory: z.string().default('/var/lib/talon/backups'),
      backups: z
        .object({
          /** Most MiB/s a backup writes to disk; 0: no limit. */
          write_limit: z.number().min(0).default(0),
          /** gzip level of backups (Wings' names): none = 0, best_speed = 1, best_compression = 9. */
          compression_level: z.enum(['none', 'best_speed', 'best_compression']).default('best_speed'),
        })
        .prefault({}),
      /** Seconds a server has to stop by its egg's stop command when the daemon itself stops. */
      shutdown_timeout: z.number().int().min(0).default(30),
      sftp: z
        .object({
          bind_address: z.string().default('0.0.0.0'),
          bind_port: z.number().int().min(0).max(65535).default(2022),
          /** Every write over SFTP answers "operation unsupported". */
          read_only: z.boolean().default(false),
        })
        .prefault({}),
      crash_detection: z
        .object({
          enabled: z.boolean().default(true),
          detect_clean_exit_as_crash: z.boolean().default(true),
          timeout: z.number().int().min(0).default(60),
        })
        .prefault({}),
    })
    .prefault({}),
  throttles: z
    .object({
      lines: z.number().int().min(1).default(2000),
      line_reset_interval: z.number().int().min(1).default(100),
    })
    .prefault({}),
  remote: z.string().url(),
  remote_query: z
    .object({
      timeout: z.number().min(1).default(30),
      boot_servers_per_page: z.number().int().min(1).default(50),
    })
    .prefault({}),
  allowed_origins: z.array(z.string()).default([]),
  runtime: z
    .object({
      /**
       * How servers run: `process` = native processes confined by bubblewrap and cgroups (the
       * zero-setup default); `docker` = one container per server through the Docker Engine API
       * (settings in `docker`, Wings' key names).
       */
      driver: z.enum(['process', 'docker']).default('process'),
      /** Run servers without bubblewrap when it is missing. Only for trusted servers. */
      allow_unconfined: z.boolean().default(false),
      /** Unprivileged identity servers and install scripts run as (when the daemon is root). */
      uid: z.number().int().min(1).default(988),
      gid: z.number().int().min(1).default(988),
      /** Extra host paths hidden from servers (e.g. the panel's DATA_DIR on an all-in-one host). */
      hidden_paths: z.array(z.string()).default([]),
      /** Highest number of processes/threads per server (cgroup pids.max). */
      pid_limit: z.number().int().min(1).default(512),
      /**
       * Which cgroups limit servers: `auto` = v2 if it has the memory, pids and cpu controllers,
       * else v1; `v2` or `v1` = only that kind; `none` = the best-effort watchdog.
       */
      cgroups: z.enum(['auto', 'v2', 'v1', 'none']).default('auto'),
      /** Where the cgroup hierarchies are mounted (v2 itself, or one v1 directory per controller). */
      cgroup_root: z.string().default('/sys/fs/cgroup'),
      /** Stats sampling interval while running, ms. */
      stats_interval_ms: z.number().int().min(50).default(1000),
    })
    .prefault({}),
  docker: dockerSchema.prefault({}),
});

export type DaemonConfig = z.infer<typeof daemonConfigSchema>;

/** A parsed config plus the file it came from (hidden from servers). */
export interface LoadedConfig {
  config: DaemonConfig;
  file: string | null;
}

export class ConfigError extends Error {}

export function parseConfig(raw: unknown): DaemonConfig {
  const res = daemonConfigSchema.safeParse(raw);
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid daemon configuration:\n${lines.join('\n')}`);
  }
  return res.data;
}

export function loadConfigFile(file: string): LoadedConfig {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read daemon configuration ${abs}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`daemon configuration ${abs} is not valid JSON: ${(err as Error).message}`);
  }
  return { config: parseConfig(raw), file: abs };
}

/** `--config <file>` wins over `TALON_DAEMON_CONFIG`; the default mirrors Wings' location. */
export function configPathFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const i = argv.indexOf('--config');
  if (i >= 0 && argv[i + 1]) return argv[i + 1]!;
  const eq = argv.find((a) => a.startsWith('--config='));
  if (eq) return eq.slice('--config='.length);
  return env.TALON_DAEMON_CONFIG ?? '/etc/talon/daemon.json';
}

/** The uid:gid server containers run as. */
export function containerUser(config: DaemonConfig): { uid: number; gid: number } {
  return config.docker.user ?? { uid: config.runtime.uid, gid: config.runtime.gid };
}
