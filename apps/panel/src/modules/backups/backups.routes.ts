import { BACKUP_NAME_MAX, BACKUP_PAGE_SIZE, BACKUP_PAGE_SIZE_MAX } from '@talon/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor } from '../../http/context.ts';
import { item, pageRequest, paginated, requestUrl } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { isTrue } from '../../lib/flags.ts';
import { nestedResource, permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { backupAttributes } from './backups.presenter.ts';

const CREATE_RULES = {
  name: `nullable|string|max:${BACKUP_NAME_MAX}`,
  is_locked: 'nullable|boolean',
  ignored: 'nullable|string',
} as const;

const RESTORE_RULES = { truncate: 'required|boolean' } as const;

/**
 * Client API backup routes (reference §3.3 "Backups"). Each declares its `backup.*` permission;
 * `{backup}` (a backup uuid) is found through the server by the guard, so another server's backup
 * or a deleted one is a 404 before any permission is looked at.
 */
export function backupRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services, repositories } = ctx;
  const prefix = '/api/client/servers/:server/backups';
  const backup = nestedResource(async (access, params) => {
    const found = await repositories.backups.find(access.server.id, params.backup ?? '');
    if (!found) throw errors.notFound();
    return found;
  });

  app.get(prefix, serverRoute('backup.read'), async (req) => {
    const { server } = permittedAccess(req);
    const page = pageRequest(req.query as Record<string, unknown>, {
      perPage: BACKUP_PAGE_SIZE,
      max: BACKUP_PAGE_SIZE_MAX,
    });
    const [{ rows, total }, count] = await Promise.all([
      repositories.backups.page(server.id, (page.page - 1) * page.perPage, page.perPage),
      repositories.backups.countNonFailed(server.id),
    ]);
    const body = paginated('backup', rows.map(backupAttributes), total, page, requestUrl(req), false);
    return { ...body, meta: { backup_count: count, ...body.meta } };
  });

  app.post(prefix, serverRoute('backup.create'), async (req) => {
    const access = permittedAccess(req);
    const input = check<{ name?: string | null; is_locked?: boolean | null; ignored?: string | null }>(
      req.body,
      CREATE_RULES,
    );
    const created = await services.backups.createForUser(
      access.server,
      access.node,
      access.permissions,
      { name: input.name, ignored: input.ignored, is_locked: isTrue(input.is_locked) },
      activityActor(req),
    );
    return item('backup', backupAttributes(created));
  });

  app.get(`${prefix}/:backup`, serverRoute('backup.read', { nested: backup }), async (req) =>
    item('backup', backupAttributes(backup.of(req))),
  );

  app.get(`${prefix}/:backup/download`, serverRoute('backup.download', { nested: backup }), async (req) =>
    item('signed_url', {
      url: await services.backups.downloadUrl(permittedAccess(req), backup.of(req), activityActor(req)),
    }),
  );

  app.post(`${prefix}/:backup/lock`, serverRoute('backup.delete', { nested: backup }), async (req) => {
    const updated = await services.backups.toggleLock(
      permittedAccess(req).server,
      backup.of(req),
      activityActor(req),
    );
    return item('backup', backupAttributes(updated));
  });

  app.post(
    `${prefix}/:backup/restore`,
    serverRoute('backup.restore', { nested: backup }),
    async (req, reply) => {
      const { server, node } = permittedAccess(req);
      const { truncate } = check<{ truncate: unknown }>(req.body, RESTORE_RULES);
      await services.backups.restore(server, node, backup.of(req), isTrue(truncate), activityActor(req));
      return reply.code(204).send();
    },
  );

  app.delete(`${prefix}/:backup`, serverRoute('backup.delete', { nested: backup }), async (req, reply) => {
    const { server, node } = permittedAccess(req);
    await services.backups.delete(server, node, backup.of(req), activityActor(req));
    return reply.code(204).send();
  });
}
