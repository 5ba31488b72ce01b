import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { WebSocketServer } from 'ws';
import type { LoadedConfig } from './config/config.ts';
import { newRequestId, registerCommon, serverLimits } from './http/plugins.ts';
import { registerRoutes } from './http/routes.ts';
import { RemoteClient } from './panel/client.ts';
import { connectDocker, dockerEndpoint } from './runtime/docker-connection.ts';
import { DockerDriver } from './runtime/docker/docker-driver.ts';
import type { RuntimeDriver } from './runtime/driver.ts';
import { ProcessDriver } from './runtime/process-driver.ts';
import { ServerManager } from './servers/manager.ts';
import { ActivityBatch } from './panel/activity-batch.ts';
import type { SftpLoginLimits } from './sftp/login-gate.ts';
import { createSftpServer, type SftpServer } from './sftp/server.ts';
import { Denylist } from './ws/denylist.ts';
import { OpenSockets } from './ws/open-sockets.ts';
import { attachWebsocket } from './ws/upgrade.ts';

export interface Daemon {
  app: FastifyInstance;
  manager: ServerManager;
  driver: RuntimeDriver;
  /** Listen on the configured host/port (port 0 picks one); returns the base URL. */
  listen(): Promise<string>;
  /**
   * Start the SFTP server on `system.sftp.bind_address` and `port` (default
   * `system.sftp.bind_port`; 0 picks one); returns the port. main.ts calls it after `listen()`.
   */
  listenSftp(port?: number): Promise<number>;
  sftp: SftpServer;
  /** SFTP and upload events waiting to be sent to the panel */
  activity: ActivityBatch;
  close(): Promise<void>;
}

export interface BuildOptions {
  log?: Logger;
  /** Milliseconds the boot may keep retrying the panel. */
  bootRetryMs?: number;
  forceNoBwrap?: boolean;
  /** Milliseconds a console socket has to authenticate (tests shorten it; default 10 s). */
  wsAuthDeadlineMs?: number;
  /** SSH login deadline and caps on waiting connections (tests shorten them; sftp/login-gate.ts). */
  sftpLogin?: Partial<SftpLoginLimits>;
}

/**
 * Wire the daemon: runtime driver → server manager (loaded from the panel) → HTTP routes and the
 * websocket. Tests build it in-process; main.ts builds it from the config file.
 */
export async function buildDaemon(loaded: LoadedConfig, opts: BuildOptions = {}): Promise<Daemon> {
  const { config } = loaded;
  const log = opts.log ?? pino({ level: config.debug ? 'debug' : 'info', base: { svc: 'daemon' } });
  const remote = new RemoteClient({
    baseUrl: config.remote,
    tokenId: config.token_id,
    token: config.token,
    timeoutSeconds: config.remote_query.timeout,
    retryForMs: opts.bootRetryMs ?? 30_000,
  });
  // What a server must never see: the daemon's own files, other servers, and operator-listed paths.
  const hiddenFiles = loaded.file ? [loaded.file] : [];
  const hidden = [
    ...(loaded.file ? [path.dirname(loaded.file)] : []),
    config.system.root_directory,
    config.system.data,
    config.system.log_directory,
    config.system.tmp_directory,
    config.system.backup_directory,
    ...config.runtime.hidden_paths,
  ];
  const driver =
    config.runtime.driver === 'docker'
      ? dockerDriver(config, log)
      : await ProcessDriver.create({
          allowUnconfined: config.runtime.allow_unconfined,
          uid: config.runtime.uid,
          gid: config.runtime.gid,
          hidden,
          hiddenFiles,
          log,
          cgroupMode: config.runtime.cgroups,
          cgroupRoot: config.runtime.cgroup_root,
          forceNoBwrap: opts.forceNoBwrap,
        });
  const manager = new ServerManager({ config, remote, driver, log });
  const denylist = new Denylist();
  const sockets = new OpenSockets();

  const activity = new ActivityBatch(remote, log.child({ svc: 'activity' }));
  const sftp = createSftpServer({
    config,
    manager,
    remote,
    activity,
    log: log.child({ svc: 'sftp' }),
    loginLimits: opts.sftpLogin,
  });

  const httpLog: FastifyBaseLogger = log.child({ svc: 'http' }, { level: 'warn' }); // per-request lines are noise
  const app: FastifyInstance = Fastify({ ...serverLimits, loggerInstance: httpLog, genReqId: newRequestId });
  registerCommon(app, config);
  registerRoutes(app, {
    config,
    manager,
    denylist,
    runtime: driver.info,
    remote,
    activity,
    log,
    sessions: { sockets, sftp },
  });
  // The panel denies a user's tokens for a server when their access to it changes (subuser
  // permissions changed or removed, owner changed): SFTP sessions into that server end too, so the
  // next login is checked by the panel again.
  app.addHook('onResponse', async (req, reply) => {
    if (req.method !== 'POST' || reply.statusCode !== 204) return;
    if (req.routeOptions.url !== '/api/servers/:server/ws/deny') return;
    const { server } = req.params as { server?: string };
    if (server) sftp.endSessions(server);
  });
  const wss: WebSocketServer = attachWebsocket(
    app.server,
    manager,
    { config, denylist, log, activity, authDeadlineMs: opts.wsAuthDeadlineMs },
    sockets,
  );

  await manager.boot();

  return {
    app,
    manager,
    driver,
    async listen() {
      await app.listen({ host: config.api.host, port: config.api.port });
      const addr = app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : config.api.port;
      const host = config.api.host === '0.0.0.0' ? '127.0.0.1' : config.api.host;
      return `http://${host}:${port}`;
    },
    sftp,
    activity,
    listenSftp: (port) => sftp.listen(port),
    async close() {
      await sftp.close();
      await Promise.race([activity.flush(), new Promise((r) => setTimeout(r, 2000).unref())]);
      for (const c of wss.clients) c.terminate();
      wss.close();
      await app.close();
      await manager.close();
    },
  };
}

/** `runtime.driver: docker`: servers in containers on the configured engine (main.ts checked it answers). */
function dockerDriver(config: LoadedConfig['config'], log: Logger): DockerDriver {
  const endpoint = dockerEndpoint(config.docker.host);
  return new DockerDriver({
    docker: connectDocker(endpoint),
    config,
    log: log.child({ svc: 'docker' }),
    // A unix socket means an engine on this host: its containers' processes are in our /proc.
    localEngine: endpoint.socketPath !== null,
  });
}
