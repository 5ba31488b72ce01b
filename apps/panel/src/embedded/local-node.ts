import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { Node } from '../db/types.ts';
import { encrypt, randomAlnum } from '../lib/crypto.ts';
import { nowIso } from '../lib/time.ts';
import { nodeConfiguration } from '../modules/nodes/nodes.configuration.ts';

export const LOCAL_NODE_NAME = 'Local';
/** The local daemon's `system.shutdown_timeout`: below the panel's kill bound for it. */
export const LOCAL_DAEMON_SHUTDOWN_SECONDS = 10;

export interface LocalNodeOptions {
  daemonPort: number;
  sftpPort: number;
  /** first and last port of the allocation block on 127.0.0.1 */
  ports: [number, number];
}

/**
 * The embedded default's node: a location, a node on this machine and a block of allocations on
 * 127.0.0.1, created once (on the first start). Returns the node, new or existing.
 */
export async function ensureLocalNode(
  ctx: AppContext,
  opts: LocalNodeOptions,
): Promise<{ node: Node; created: boolean }> {
  const db = ctx.db.db;
  const existing = await db
    .selectFrom('nodes')
    .selectAll()
    .where('name', '=', LOCAL_NODE_NAME)
    .executeTakeFirst();
  if (existing) return { node: existing, created: false };
  const at = nowIso();
  const location =
    (await db.selectFrom('locations').selectAll().where('short', '=', 'local').executeTakeFirst()) ??
    (await db
      .insertInto('locations')
      .values({ short: 'local', long: 'This machine', created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow());
  const node = await db
    .insertInto('nodes')
    .values({
      uuid: randomUUID(),
      public: 1,
      name: LOCAL_NODE_NAME,
      description: 'The daemon that runs beside the panel',
      location_id: location.id,
      fqdn: '127.0.0.1',
      scheme: 'http',
      behind_proxy: 0,
      maintenance_mode: 0,
      memory: 8192,
      memory_overallocate: 0,
      disk: 51200,
      disk_overallocate: 0,
      upload_size: 100,
      daemon_token_id: randomAlnum(16),
      daemon_token: encrypt(ctx.config.appKey, randomAlnum(64)),
      daemon_listen: opts.daemonPort,
      daemon_sftp: opts.sftpPort,
      daemon_base: path.join(ctx.config.dataDir, 'daemon', 'volumes'),
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const [first, last] = opts.ports;
  const rows = [];
  for (let port = first; port <= last; port++) {
    rows.push({
      node_id: node.id,
      ip: '127.0.0.1',
      ip_alias: 'localhost',
      port,
      server_id: null,
      notes: null,
      created_at: at,
      updated_at: at,
    });
  }
  if (rows.length > 0) await db.insertInto('allocations').values(rows).execute();
  return { node, created: true };
}

/**
 * Writes the daemon's configuration file for a node on this machine (mode 0600: it holds the node
 * token). The daemon's directories live under `dir`, and the panel's data directory is hidden from
 * every server.
 */
export function writeDaemonConfig(ctx: AppContext, node: Node, dir: string): string {
  const base = nodeConfiguration(node, ctx.config.appKey, ctx.config.appUrl);
  const config = {
    ...base,
    app_name: ctx.config.appName,
    api: {
      ...base.api,
      host: node.fqdn === '127.0.0.1' ? '127.0.0.1' : '0.0.0.0',
      ssl: { ...base.api.ssl, enabled: false },
      remote_download: { allowed_networks: ctx.config.localDaemon.remoteDownloadNetworks },
    },
    system: {
      ...base.system,
      root_directory: path.join(dir, 'state'),
      log_directory: path.join(dir, 'logs'),
      tmp_directory: path.join(dir, 'tmp'),
      // Backup archives beside the daemon's state, outside every server's directory.
      backup_directory: path.join(dir, 'backups'),
      data: node.daemon_base,
      // The panel kills its daemon LOCAL_DAEMON_KILL_AFTER_MS (12 s) after SIGTERM, and Ctrl+C on
      // `npm start` must end everything within 15 s: servers get 10 s for their stop command.
      shutdown_timeout: LOCAL_DAEMON_SHUTDOWN_SECONDS,
    },
    allowed_origins: originsOf(ctx.config.appUrl),
    runtime: { driver: ctx.config.localDaemon.runtime, hidden_paths: [ctx.config.dataDir] },
    // The local node's allocations are on 127.0.0.1, which only the host's network reaches: its
    // containers share it (no bridge, no published ports), as its processes do.
    docker: { host: ctx.config.localDaemon.dockerHost ?? '', network: { network_mode: 'host' } },
    throttles: { lines: ctx.config.localDaemon.consoleThrottleLines, line_reset_interval: 100 },
  };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'config.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * The browser origins allowed to open consoles: the panel URL, and on this machine also its other
 * loopback spelling (people type both localhost and 127.0.0.1).
 */
function originsOf(appUrl: string): string[] {
  const url = new URL(appUrl);
  const origins = [url.origin];
  const twin = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname === '127.0.0.1' ? 'localhost' : null;
  if (twin) origins.push(`${url.protocol}//${twin}${url.port ? `:${url.port}` : ''}`);
  return origins;
}
