import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { resolveUsableServer } from '../servers/server-access.ts';

type ServerRequest = FastifyRequest<{ Params: { server: string } }>;

/** Client API file routes (reference §3.3 "Files"). */
export function fileRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;
  // 404, then the server's state (409), before the service checks permission and input.
  const access = (req: ServerRequest) =>
    resolveUsableServer(repositories.servers, requireActor(req).user, req.params.server);

  app.get('/api/client/servers/:server/files/contents', async (req: ServerRequest, reply) => {
    const body = await services.files.contents(await access(req), req.query, activityActor(req));
    return reply.type('text/plain; charset=UTF-8').send(body);
  });

  const prefix = '/api/client/servers/:server/files';
  app.get(`${prefix}/list`, async (req: ServerRequest) => services.files.list(await access(req), req.query));
  app.get(`${prefix}/download`, async (req: ServerRequest) =>
    services.files.download(await access(req), req.query, activityActor(req)),
  );
  app.get(`${prefix}/upload`, async (req: ServerRequest) => services.files.upload(await access(req)));
  app.put(`${prefix}/rename`, async (req: ServerRequest, reply) => {
    await services.files.rename(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/copy`, async (req: ServerRequest, reply) => {
    await services.files.copy(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/compress`, async (req: ServerRequest) =>
    services.files.compress(await access(req), req.body, activityActor(req)),
  );
  app.post(`${prefix}/decompress`, async (req: ServerRequest, reply) => {
    await services.files.decompress(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/delete`, async (req: ServerRequest, reply) => {
    await services.files.delete(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/create-folder`, async (req: ServerRequest, reply) => {
    await services.files.createFolder(await access(req), req.body, activityActor(req));
    return reply.code(204).send();
  });
  app.post(`${prefix}/chmod`, async (req: ServerRequest, reply) => {
    await services.files.chmod(await access(req), req.body);
    return reply.code(204).send();
  });

  // The body of a write is the file itself, whatever its content type: it is never parsed.
  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    raw.post('/api/client/servers/:server/files/write', async (req: ServerRequest, reply) => {
      await services.files.write(await access(req), req.query, req.body, activityActor(req));
      return reply.code(204).send();
    });
  });
}
