import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors, fieldError } from '../http/errors.ts';
import { check } from '../http/input.ts';
import { isTrue } from '../lib/flags.ts';
import { nowIso } from '../lib/time.ts';
import { subjects } from '../modules/backups/backups.service.ts';
import { requireNode } from './remote-auth.ts';

type UuidRequest = FastifyRequest<{ Params: { uuid: string } }>;

const DAEMON_ACTOR = { userId: null, apiKeyId: null, ip: null };

const REPORT_RULES = {
  successful: 'required|boolean',
  checksum: 'nullable|string',
  checksum_type: 'nullable|string',
  size: 'nullable|integer|min:0',
  parts: 'nullable|array',
  'parts.*.etag': 'required|string',
  'parts.*.part_number': 'required|numeric',
} as const;

interface Report {
  successful: unknown;
  checksum?: string | null;
  checksum_type?: string | null;
  size?: number | null;
}

/**
 * What a daemon reports about backups (Wings protocol §5.9). Only a backup of a server on the
 * calling node is found (404 otherwise, like every other remote lookup here; the reference's 403
 * would confirm that the backup exists elsewhere), and only a live (not deleted) one.
 */
export function backupReportRoutes(app: FastifyInstance, ctx: AppContext) {
  const { backups } = ctx.repositories;

  const backupOfNode = async (req: UuidRequest) => {
    const found = await backups.findOnNode(req.params.uuid, requireNode(req).id);
    if (!found) throw errors.notFound();
    return found;
  };

  app.post('/api/remote/backups/:uuid', async (req: UuidRequest, reply) => {
    const { backup, server } = await backupOfNode(req);
    const body = check<Report>(req.body, REPORT_RULES);
    const ok = isTrue(body.successful);
    if (ok) {
      for (const field of ['checksum', 'checksum_type', 'size'] as const) {
        if (body[field] === null || body[field] === undefined) {
          throw fieldError(
            field,
            `The ${field.replace('_', ' ')} field is required when successful is true.`,
            'required_if',
          );
        }
      }
    }
    if (backup.is_successful === 1) {
      throw errors.badRequest('Cannot update the status of a backup that is already marked as completed.');
    }
    const at = nowIso();
    const done = await backups.complete(backup.id, {
      is_successful: ok ? 1 : 0,
      checksum: ok ? `${body.checksum_type}:${body.checksum}` : null,
      bytes: ok ? Number(body.size) : 0,
      completed_at: at,
      updated_at: at,
      // A failed backup cannot stay locked: nothing would then let it be deleted from the list.
      ...(ok ? {} : { is_locked: 0 }),
    });
    if (!done) {
      throw errors.badRequest('Cannot update the status of a backup that is already marked as completed.');
    }
    await ctx.services.activity.log(
      ok ? 'server:backup.complete' : 'server:backup.fail',
      DAEMON_ACTOR,
      subjects(server, backup),
      { name: backup.name },
    );
    return reply.code(204).send();
  });

  app.post('/api/remote/backups/:uuid/restore', async (req: UuidRequest, reply) => {
    const { backup, server } = await backupOfNode(req);
    const { successful } = check<{ successful: unknown }>(req.body, { successful: 'required|boolean' });
    const ok = isTrue(successful);
    // Back to normal whatever the outcome: a failed restore leaves the files as the daemon left them.
    if (server.status === 'restoring_backup') {
      await ctx.repositories.servers.update(server.id, { status: null, updated_at: nowIso() });
    }
    // The reference logs `server.backup.restore-failed` (a dot): ours keeps the `server:` prefix.
    await ctx.services.activity.log(
      ok ? 'server:backup.restore-complete' : 'server:backup.restore-failed',
      DAEMON_ACTOR,
      subjects(server, backup),
      { name: backup.name },
    );
    return reply.code(204).send();
  });
}

/**
 * Before `POST /api/remote/servers/reset` clears the statuses a restarted daemon left behind: each
 * restore it ended is logged `server:backup.restore-failed` (Wings protocol §5.7), about the server.
 */
export async function logInterruptedRestores(ctx: AppContext, nodeId: number): Promise<void> {
  for (const server of await ctx.repositories.backups.restoringOnNode(nodeId)) {
    await ctx.services.activity.log(
      'server:backup.restore-failed',
      DAEMON_ACTOR,
      [{ type: 'server', id: server.id }],
      {
        interrupted: true,
      },
    );
  }
}
