import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonConfig } from '../config/config.ts';
import { denylistFor } from '../fs/denylist.ts';
import { FileError } from '../fs/errors.ts';
import { fileObject, sortListing } from '../fs/file-object.ts';
import { Jail } from '../fs/jail.ts';
import { sniffMime } from '../fs/mime.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';

const MIB = 1024 * 1024;
const WRITE_DIRECTORY_CONFLICT =
  'Cannot write file, name conflicts with an existing directory by the same name.';
const DIRECTORY_MISSING = 'The requested directory does not exist.';

type WithServer = (req: FastifyRequest, reply: FastifyReply) => Server | null;

/** First value of a query parameter (repeated parameters: the first one, as Go's `Query`). */
export function query(req: FastifyRequest, key: string): string {
  const v = (req.query as Record<string, string | string[] | undefined>)[key];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** The server's files, as seen by its unprivileged user when the daemon is root. */
export function jailOf(s: Server, config: DaemonConfig): Jail {
  const owner = process.getuid?.() === 0 ? { uid: config.runtime.uid, gid: config.runtime.gid } : null;
  return new Jail(s.dir, owner);
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
    const { handle, stat, name } = await jailOf(s, config).openRead(query(req, 'file'));
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
      const entries = await jailOf(s, config).list(query(req, 'directory'));
      return entries.map((e) => fileObject(e.name, e.stat, e.mime)).sort(sortListing);
    } catch (err) {
      if (err instanceof FileError && err.kind === 'not_found') throw new ServerError(DIRECTORY_MISSING, 404);
      throw err;
    }
  });

  // Raw bodies of any type on this route only; the other routes keep Fastify's JSON parser.
  const bodyLimit = Math.max(1, config.api.upload_limit) * MIB;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));

    scope.post(
      '/api/servers/:server/files/write',
      {
        bodyLimit,
        // Before the body is read: an unknown server is 404, and the size must be known up front.
        onRequest: async (req, reply) => {
          if (!withServer(req, reply)) return reply;
          if (req.headers['content-length'] === undefined)
            throw new ServerError('Missing Content-Length', 400);
        },
      },
      async (req, reply) => {
        const s = withServer(req, reply);
        if (!s) return reply;
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const jail = jailOf(s, config);
        const file = query(req, 'file');
        const parts = jail.parts(file);
        if (denylistFor(s.config.settings.egg?.file_denylist).denies(parts)) {
          throw new FileError('denylist', file);
        }
        const limit = s.config.settings.build.disk_space * MIB;
        try {
          const { oldSize } = await jail.writeFile(file, body, async (old) => {
            if (limit > 0 && (await s.disk.current()) + body.length - old > limit) {
              throw new FileError('no_space', `${body.length} bytes for ${file}`);
            }
          });
          s.disk.adjust(body.length - oldSize);
        } catch (err) {
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
