import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonConfig } from '../config/config.ts';
import { FileError } from '../fs/errors.ts';
import { fileObject, sortListing } from '../fs/file-object.ts';
import { sniffMime } from '../fs/mime.ts';
import { filesOf, runtimeOwner, type ServerFiles } from '../fs/server-files.ts';
import { ServerError } from '../servers/errors.ts';
import { requestFileScope } from './request-file-scope.ts';
import type { Server } from '../servers/server.ts';

const MIB = 1024 * 1024;
const WRITE_DIRECTORY_CONFLICT =
  'Cannot write file, name conflicts with an existing directory by the same name.';
const DIRECTORY_MISSING = 'The requested directory does not exist.';
export const BODY_TOO_LARGE = 'The request body is larger than the upload limit of this node.';
const BODY_CUT_SHORT = 'The request body ended before all of it arrived.';

type WithServer = (req: FastifyRequest, reply: FastifyReply) => Server | null;

/** First value of a query parameter (repeated parameters: the first one, as Go's `Query`). */
export function query(req: FastifyRequest, key: string): string {
  const v = (req.query as Record<string, string | string[] | undefined>)[key];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/**
 * The server's files with their write rules, as its unprivileged user when the daemon is root;
 * with `req`, limited to the folders the panel names for it (`request-file-scope.ts`).
 */
export function serverFiles(s: Server, config: DaemonConfig, req?: FastifyRequest): ServerFiles {
  return filesOf(s, runtimeOwner(config.runtime), req ? requestFileScope(req) : null);
}

/** `attachment; filename="…"` with quotes/backslashes escaped; non-ASCII names also as RFC 5987. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '\\$&');
  const header = `attachment; filename="${ascii}"`;
  return /^[\x20-\x7e]*$/.test(name) ? header : `${header}; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Wings' file routes (protocol §2.2): `files/contents`, `files/write`, `files/list-directory`. Every
 * path goes through the jail (`fs/jail.ts`); filesystem errors become Wings' answers in the error
 * handler (`files-errors.ts`).
 */
export function registerFileRoutes(app: FastifyInstance, config: DaemonConfig, withServer: WithServer): void {
  app.get('/api/servers/:server/files/contents', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const { handle, stat, name } = await serverFiles(s, config, req).jail.openRead(query(req, 'file'));
    try {
      const head = Buffer.alloc(512);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const mime = sniffMime(head.subarray(0, bytesRead));
      void reply.header('X-Mime-Type', mime).header('Content-Length', String(stat.size));
      if (query(req, 'download') !== '') {
        void reply.header('Content-Disposition', contentDisposition(name)).type('application/octet-stream');
      } else {
        void reply.type(mime);
      }
      if (stat.size === 0) {
        await handle.close();
        return reply.send(Buffer.alloc(0));
      }
      // Never more than the size measured at open time; the stream closes the handle.
      return reply.send(handle.createReadStream({ start: 0, end: stat.size - 1 }));
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  });

  app.get('/api/servers/:server/files/list-directory', async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    try {
      const entries = await serverFiles(s, config, req).jail.list(query(req, 'directory'));
      return entries.map((e) => fileObject(e.name, e.stat, e.mime)).sort(sortListing);
    } catch (err) {
      if (err instanceof FileError && err.kind === 'not_found') throw new ServerError(DIRECTORY_MISSING, 404);
      throw err;
    }
  });

  // Raw bodies of any type on this route only, left unread by the parser: the handler streams them
  // to disk. The other routes keep the JSON parser.
  const bodyLimit = Math.max(1, config.api.upload_limit) * MIB;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    scope.post(
      '/api/servers/:server/files/write',
      {
        // Before the body is read: an unknown server is 404, and the size must be known and allowed.
        onRequest: async (req, reply) => {
          if (!withServer(req, reply)) return reply;
          const length = req.headers['content-length'];
          if (length === undefined) throw new ServerError('Missing Content-Length', 400);
          if (Number(length) > bodyLimit) {
            void reply.header('Connection', 'close');
            throw new ServerError(BODY_TOO_LARGE, 413);
          }
        },
      },
      async (req, reply) => {
        const s = withServer(req, reply);
        if (!s) return reply;
        const length = Number(req.headers['content-length']);
        try {
          // The target is replaced only once the whole body arrived: an editor save cut short
          // leaves the old file, and a reader never sees half of the new one. The announced
          // length is checked against the quota before anything is created.
          const staged = await serverFiles(s, config, req).stage(query(req, 'file'), length);
          try {
            try {
              for await (const chunk of req.raw as AsyncIterable<Buffer>) await staged.write(chunk);
            } catch (err) {
              // A refusal of the write rules (the quota) is answered as such; else the client went away.
              if (!(err instanceof FileError) && !req.raw.complete)
                throw new ServerError(BODY_CUT_SHORT, 400);
              throw err;
            }
            if (staged.size !== length) throw new ServerError(BODY_CUT_SHORT, 400);
            await staged.commit();
          } finally {
            await staged.discard();
          }
        } catch (err) {
          // The rest of a refused body is not read: the connection ends with the answer.
          if (!req.raw.complete) void reply.header('Connection', 'close');
          if (err instanceof FileError && err.kind === 'is_directory') {
            throw new ServerError(WRITE_DIRECTORY_CONFLICT, 400);
          }
          throw err;
        }
        return reply.code(204).send();
      },
    );
  });
}
