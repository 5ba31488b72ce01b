import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors } from '../http/errors.ts';
import { check } from '../http/input.ts';
import { isTrue } from '../lib/flags.ts';
import { nowIso } from '../lib/time.ts';
import { processConfiguration, serverSettings } from '../modules/servers/server-config.ts';
import { nodeAuthentication, requireNode } from './remote-auth.ts';
import { sftpAuthRoute } from './sftp-auth.ts';
import { backupReportRoutes, logInterruptedRestores } from './backup-reports.ts';

type UuidRequest = FastifyRequest<{ Params: { uuid: string } }>;

/**
 * `/api/remote/*`: what daemons call (Wings protocol §5). Every server is looked up on the calling
 * node only; the original leaves some of these unscoped.
 */
export async function remoteRoutes(app: FastifyInstance, ctx: AppContext) {
  const repo = ctx.repositories.servers;
  app.decorateRequest('node', null);
  app.addHook('onRequest', nodeAuthentication(repo, ctx.services.servers.daemonClient));

  const serverOfNode = async (req: UuidRequest) => {
    const server = await repo.findByUuidOnNode(req.params.uuid, requireNode(req).id);
    if (!server) throw errors.notFound();
    return server;
  };
  const documentOf = async (req: UuidRequest) => {
    const bundle = await repo.bundle(await serverOfNode(req));
    return { settings: serverSettings(bundle), process_configuration: processConfiguration(bundle) };
  };

  sftpAuthRoute(app, ctx);
  backupReportRoutes(app, ctx);

  app.get('/api/remote/servers', async (req) => {
    const query = req.query as Record<string, unknown>;
    const page = Math.max(1, Number.parseInt(typeof query.page === 'string' ? query.page : '1', 10) || 1);
    const perPage = Math.min(
      500,
      Math.max(1, Number.parseInt(typeof query.per_page === 'string' ? query.per_page : '50', 10) || 50),
    );
    const { rows, total } = await repo.listForNode(requireNode(req).id, (page - 1) * perPage, perPage);
    const data = [];
    for (const server of rows) {
      const bundle = await repo.bundle(server);
      data.push({
        uuid: server.uuid,
        settings: serverSettings(bundle),
        process_configuration: processConfiguration(bundle),
      });
    }
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    return {
      data,
      links: {},
      meta: {
        current_page: page,
        from: rows.length ? (page - 1) * perPage + 1 : null,
        last_page: lastPage,
        path: `${ctx.config.appUrl}/api/remote/servers`,
        per_page: perPage,
        to: rows.length ? (page - 1) * perPage + rows.length : null,
        total,
      },
    };
  });

  app.get('/api/remote/servers/:uuid', async (req: UuidRequest) => documentOf(req));

  app.get('/api/remote/servers/:uuid/install', async (req: UuidRequest) => {
    const server = await serverOfNode(req);
    const { egg } = await repo.bundle(server);
    return {
      container_image: egg.script_container,
      entrypoint: egg.script_entry,
      script: egg.script_install ?? '',
    };
  });

  app.post('/api/remote/servers/:uuid/install', async (req: UuidRequest, reply) => {
    const server = await serverOfNode(req);
    const body = check<{ successful: boolean | number | string; reinstall?: boolean }>(req.body, {
      successful: 'present|boolean',
      reinstall: 'sometimes|boolean',
    });
    const ok = isTrue(body.successful);
    const failed = body.reinstall ? 'reinstall_failed' : 'install_failed';
    const at = nowIso();
    await repo.update(server.id, {
      status: server.status === 'suspended' ? 'suspended' : ok ? null : failed,
      installed_at: at,
      updated_at: at,
    });
    await ctx.services.activity.log(
      ok ? 'server:install.completed' : 'server:install.failed',
      {
        userId: null,
        apiKeyId: null,
        ip: req.ip,
      },
      [{ type: 'server', id: server.id }],
    );
    return reply.code(204).send();
  });

  app.post('/api/remote/servers/reset', async (req, reply) => {
    await logInterruptedRestores(ctx, requireNode(req).id);
    await repo.resetStuck(requireNode(req).id, nowIso());
    return reply.code(204).send();
  });

  // A daemon's batch (reference §5.10) is checked whole and stored whole: a malformed entry refuses
  // the batch (422; the daemon drops it), and a failure stores nothing (5xx; the daemon sends it
  // again), so no entry is ever stored twice or half a batch lost.
  app.post('/api/remote/activity', async (req, reply) => {
    const body = check<{
      data: {
        user?: string | null;
        server: string;
        event: string;
        metadata: unknown;
        ip?: string | null;
        timestamp: string;
      }[];
    }>(req.body, {
      data: 'required|array',
      'data.*.server': 'required|uuid',
      'data.*.event': 'required|string',
      'data.*.metadata': 'present',
      'data.*.user': 'nullable|uuid',
      'data.*.ip': 'nullable|ip',
      'data.*.timestamp': 'required|string',
    });
    const node = requireNode(req);
    const entries: Parameters<typeof ctx.services.activity.logAll>[0][number][] = [];
    for (const entry of body.data) {
      if (!entry.event.startsWith('server:')) continue;
      const server = await repo.findByUuidOnNode(entry.server, node.id);
      if (!server) continue;
      const user = entry.user ? await ctx.repositories.users.findByUuid(entry.user) : undefined;
      entries.push({
        event: entry.event,
        actor: { userId: user?.id ?? null, apiKeyId: null, ip: entry.ip ?? '127.0.0.1' },
        // About the server only (reference §5.10), as the panel's own server events are: a power
        // action reads the same in the logs whether the console's socket or the API sent it.
        subjects: [{ type: 'server', id: server.id }],
        properties: (entry.metadata && typeof entry.metadata === 'object' ? entry.metadata : {}) as Record<
          string,
          unknown
        >,
        at: reportedTime(entry.timestamp),
      });
    }
    await ctx.services.activity.logAll(entries);
    return reply.code(204).send();
  });
}

/**
 * When a reported event happened (the daemon batches SFTP events for seconds): its ISO time when it
 * is one and not in the future, else now.
 */
function reportedTime(value: unknown): string {
  const now = Date.now();
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return new Date(Number.isNaN(at) || at > now ? now : at).toISOString();
}
