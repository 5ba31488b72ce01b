import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { errors } from '../../http/errors.ts';
import { permittedAccess, serverRoute } from '../../http/server-guard.ts';
import { FilePullService } from './files-pull.service.ts';

/** Reference §2.8 `throttle:10,5`: remote pulls per user, a bucket of their own. */
const PULLS_PER_WINDOW = 10;
const PULL_WINDOW_MS = 5 * 60_000;

/**
 * Client API file routes (reference §3.3 "Files"). Each declares its permission; the guard answers
 * 404, then 409, then 403 before the service checks the input (422).
 */
export function fileRoutes(app: FastifyInstance, ctx: AppContext) {
  const { services } = ctx;
  const prefix = '/api/client/servers/:server/files';

  app.get(`${prefix}/contents`, serverRoute('file.read-content'), async (req, reply) => {
    const body = await services.files.contents(permittedAccess(req), req.query, activityActor(req));
    return reply.type('text/plain; charset=UTF-8').send(body);
  });
  app.get(`${prefix}/list`, serverRoute('file.read'), async (req) =>
    services.files.list(permittedAccess(req), req.query),
  );
  app.get(`${prefix}/download`, serverRoute('file.read-content'), async (req) =>
    services.files.download(permittedAccess(req), req.query, activityActor(req)),
  );
  app.get(`${prefix}/upload`, serverRoute('file.create'), async (req) =>
    services.files.upload(permittedAccess(req)),
  );
  app.put(`${prefix}/rename`, serverRoute('file.update'), async (req, reply) => {
    await services.files.rename(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/copy`, serverRoute('file.create'), async (req, reply) => {
    await services.files.copy(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/compress`, serverRoute('file.archive'), async (req) =>
    services.files.compress(permittedAccess(req), req.body, activityActor(req)),
  );
  app.post(`${prefix}/decompress`, serverRoute('file.create'), async (req, reply) => {
    await services.files.decompress(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/delete`, serverRoute('file.delete'), async (req, reply) => {
    await services.files.delete(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/create-folder`, serverRoute('file.create'), async (req, reply) => {
    await services.files.createFolder(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  const pulls = new FilePullService(services.servers.daemonClient, services.activity);
  app.post(`${prefix}/pull`, serverRoute('file.create'), async (req, reply) => {
    // Counted before the body is checked: refused requests use the allowance too, as in the original.
    const hit = ctx.apiThrottle.hitNow(`files.pull:${requireActor(req).user.uuid}`, PULL_WINDOW_MS);
    if (hit.hits > PULLS_PER_WINDOW) throw errors.tooManyRequests(hit.retryAfter, PULLS_PER_WINDOW);
    await pulls.pull(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.get(`${prefix}/pull`, serverRoute('file.create'), async (req) => pulls.running(permittedAccess(req)));
  app.post(`${prefix}/chmod`, serverRoute('file.update'), async (req, reply) => {
    await services.files.chmod(permittedAccess(req), req.body, activityActor(req));
    return reply.code(204).send();
  });

  // The body of a write is the file itself, whatever its content type: it is never parsed.
  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    raw.post(`${prefix}/write`, serverRoute('file.create'), async (req, reply) => {
      await services.files.write(permittedAccess(req), req.query, req.body, activityActor(req));
      return reply.code(204).send();
    });
  });
}
