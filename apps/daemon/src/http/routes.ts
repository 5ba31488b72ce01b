import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { POWER_ACTIONS, type DaemonServer, type PowerAction, type SystemInfo } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import type { ServerManager } from '../servers/manager.ts';
import type { Server } from '../servers/server.ts';
import type { Denylist } from '../ws/denylist.ts';
import type { RuntimeInfo } from '../runtime/driver.ts';
import type { SystemInfoV2 } from '@talon/shared/wings/system-v2';
import { runtimeExtension, systemInfo, systemInfoV2 } from './system-info.ts';
import { dockerFacts } from './docker-facts.ts';
import {
  connectDocker,
  dockerEndpoint,
  engineMessage,
  whyDockerUnusable,
} from '../runtime/docker-connection.ts';
import { registerFileOperationRoutes } from './files-ops.ts';
import { registerFileRoutes } from './files.ts';
import { registerPullRoutes } from './files-pull.ts';
import { registerSignedUrlRoutes } from './signed-urls.ts';
import { registerDeauthorizeRoute, type UserSessions } from './deauthorize.ts';
import { registerBackupRoutes } from '../backups/routes.ts';
import { registerInstallLogRoute } from './install-log.ts';
import type { ActivityBatch } from '../panel/activity-batch.ts';
import type { RemoteClient } from '../panel/client.ts';
import type { Logger } from 'pino';
import { UNKNOWN_SERVER } from './plugins.ts';
import { isUuid } from '../fs/paths.ts';

export const DAEMON_VERSION = '0.1.0';

export interface RouteDeps {
  config: DaemonConfig;
  manager: ServerManager;
  denylist: Denylist;
  runtime: RuntimeInfo;
  remote: RemoteClient;
  activity: ActivityBatch;
  log: Logger;
  /** open console sockets and SFTP sessions, ended by `POST /api/deauthorize-user` */
  sessions: UserSessions;
}

/** The per-server document of GET /api/servers and GET /api/servers/:server (§2.4). */
export function serverDocument(s: Server, config: DaemonConfig): DaemonServer {
  const stats = s.stats();
  return {
    state: s.state,
    is_suspended: s.suspended,
    utilization: stats,
    configuration: {
      ...s.config.settings,
      crash_detection_enabled:
        s.config.settings.crash_detection_enabled ?? config.system.crash_detection.enabled,
      labels: {},
    },
  };
}

function bad(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).send({ error });
}

/** Run in the background; failures are only logged, as the client already has its 202. */
function background(req: FastifyRequest, what: string, p: Promise<unknown>): void {
  p.catch((err: Error) => req.log.warn({ err }, `${what} failed`));
}

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { config, manager } = deps;

  // `?v=2` is Wings' richer answer (total memory, the distribution's name, the Docker engine's
  // facts on the docker runtime); the panel's node health uses it.
  const endpoint = config.runtime.driver === 'docker' ? dockerEndpoint(config.docker.host) : null;
  const engine = endpoint ? connectDocker(endpoint) : null;
  app.get('/api/system', async (req, reply): Promise<SystemInfo | SystemInfoV2 | FastifyReply> => {
    const runtime = runtimeExtension(deps.runtime, config);
    if ((req.query as { v?: string }).v !== '2') return systemInfo(DAEMON_VERSION, runtime);
    const answer = systemInfoV2(DAEMON_VERSION, runtime);
    if (!engine || !endpoint) return answer;
    try {
      return { ...answer, docker: await dockerFacts(engine) };
    } catch (err) {
      // Wings answers 500 when Docker fails; ours says why, for the admin's node page.
      const why = (await whyDockerUnusable(engine, endpoint)) ?? engineMessage(err);
      req.log.error({ err }, 'the Docker engine did not answer');
      return reply.code(500).send({ error: `The Docker engine cannot be used: ${why}` });
    }
  });

  app.get('/api/servers', async () => manager.all().map((s) => serverDocument(s, config)));

  app.post('/api/servers', async (req, reply) => {
    const body = z
      .object({ uuid: z.string(), start_on_completion: z.boolean().optional() })
      .safeParse(req.body);
    if (!body.success || !isUuid(body.data.uuid)) {
      return bad(reply, 422, 'The data provided in the request could not be validated.');
    }
    await manager.create(body.data.uuid, body.data.start_on_completion ?? false);
    return reply.code(202).send();
  });

  // Every /api/servers/:server route needs a server loaded on this node.
  const withServer = (req: FastifyRequest, reply: FastifyReply): Server | null => {
    const s = manager.get((req.params as { server: string }).server);
    if (!s) void bad(reply, 404, UNKNOWN_SERVER);
    return s ?? null;
  };

  registerFileRoutes(app, config, withServer);
  registerFileOperationRoutes(app, config, withServer);
  registerPullRoutes(app, config, withServer);
  registerSignedUrlRoutes(app, config, manager, deps.activity, deps.denylist);
  registerInstallLogRoute(app, config, withServer);
  registerDeauthorizeRoute(app, { denylist: deps.denylist, sessions: deps.sessions, log: deps.log });
  registerBackupRoutes(
    app,
    { config, remote: deps.remote, log: deps.log.child({ svc: 'backups' }) },
    withServer,
  );

  app.get('/api/servers/:server', async (req, reply) => {
    const s = withServer(req, reply);
    return s ? serverDocument(s, config) : reply;
  });

  app.delete('/api/servers/:server', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    await manager.delete(s.uuid);
    return reply.code(204).send();
  });

  app.get('/api/servers/:server/logs', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    let size = Number((req.query as { size?: string }).size ?? 100);
    if (!Number.isInteger(size) || size <= 0 || size > 100) size = 100;
    return { data: s.history.last(size) };
  });

  app.post('/api/servers/:server/power', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = z
      .object({ action: z.string(), wait_seconds: z.number().int().optional() })
      .safeParse(req.body ?? {});
    const action = body.success ? body.data.action : '';
    if (!(POWER_ACTIONS as readonly string[]).includes(action)) {
      return bad(
        reply,
        422,
        'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"',
      );
    }
    if ((action === 'start' || action === 'restart') && s.suspended) {
      return bad(reply, 400, 'Cannot start or restart a server that is suspended.');
    }
    let wait = body.success ? (body.data.wait_seconds ?? 0) : 0;
    if (wait < 0 || wait > 300) wait = 30;
    background(req, `power ${action}`, s.power(action as PowerAction, wait * 1000));
    return reply.code(202).send();
  });

  app.post('/api/servers/:server/commands', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = z.object({ commands: z.array(z.string()) }).safeParse(req.body);
    if (!body.success) return bad(reply, 422, 'The data provided in the request could not be validated.');
    if (!s.running || s.state === 'offline')
      return bad(reply, 502, 'Cannot send commands to a stopped server instance.');
    for (const c of body.data.commands) s.sendCommand(c);
    return reply.code(204).send();
  });

  app.post('/api/servers/:server/install', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    background(
      req,
      'install',
      (async () => {
        await s.sync();
        await manager.install(s, false);
      })(),
    );
    return reply.code(202).send();
  });

  app.post('/api/servers/:server/reinstall', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    if (s.powerLocked)
      return bad(reply, 409, 'Cannot execute server reinstall event while another power action is running.');
    background(
      req,
      'reinstall',
      s.withLock(0, async () => {
        if (s.state !== 'offline') await s.stopWithin(10_000);
        await s.sync();
        await manager.install(s, true);
      }),
    );
    return reply.code(202).send();
  });

  app.post('/api/servers/:server/sync', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    await s.sync();
    return reply.code(204).send();
  });

  app.post('/api/servers/:server/ws/deny', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = z.object({ jtis: z.array(z.string()) }).safeParse(req.body);
    if (!body.success) return bad(reply, 422, 'The data provided in the request could not be validated.');
    deps.denylist.deny(body.data.jtis);
    return reply.code(204).send();
  });
}
