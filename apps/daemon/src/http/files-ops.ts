import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import path from 'node:path';
import { z } from 'zod';
import type { DaemonConfig } from '../config/config.ts';
import { ArchiveTooLarge, UnknownArchive } from '../fs/archive.ts';
import { FileError } from '../fs/errors.ts';
import { fileObject } from '../fs/file-object.ts';
import { checkMode } from '../fs/jail.ts';
import { filesOf, runtimeOwner, type ServerFiles } from '../fs/server-files.ts';
import { ServerError } from '../servers/errors.ts';
import { requestFileScope } from './request-file-scope.ts';
import type { Server } from '../servers/server.ts';

type WithServer = (req: FastifyRequest, reply: FastifyReply) => Server | null;

export const MESSAGES = {
  renameEmpty: 'No files to move or rename were provided.',
  renameExists: 'Cannot move or rename file, destination already exists.',
  deleteEmpty: 'No files were specified for deletion.',
  compressEmpty: 'No files were passed through to be compressed.',
  compressFull: 'This server does not have enough available disk space to generate a compressed archive.',
  unknownArchive: 'The archive provided is in a format Wings does not understand.',
  chmodEmpty: 'No files to chmod were provided.',
  badMode: 'Invalid file mode.',
  unparsable: 'An error occurred while parsing the request body, please check the request and try again.',
};
const rootField = z.string().nullish();
const schemas = {
  rename: z.object({
    root: rootField,
    files: z.array(z.object({ from: z.string(), to: z.string() })).nullish(),
  }),
  copy: z.object({ location: z.string() }),
  createDirectory: z.object({ name: z.string(), path: z.string().nullish() }),
  delete: z.object({ root: rootField, files: z.array(z.string()).nullish() }),
  compress: z.object({ root: rootField, files: z.array(z.string()).nullish() }),
  decompress: z.object({ root: rootField, file: z.string() }),
  chmod: z.object({
    root: rootField,
    files: z.array(z.object({ file: z.string(), mode: z.string() })).nullish(),
  }),
};

/** Wings' answer to a body that does not bind (§2.1): 400, the generic text and the request id. */
function parse<T>(schema: z.ZodType<T>, req: FastifyRequest, reply: FastifyReply): T | null {
  const r = schema.safeParse(req.body);
  if (r.success) return r.data;
  void reply.code(400).send({ error: MESSAGES.unparsable, request_id: req.id });
  return null;
}

/** A path of a request as Wings forms it: `file` joined to `root`, always below the server root. */
function under(root: string | null | undefined, file: string): string {
  return path.posix.join('/', root ?? '/', file);
}

/** An octal mode string as Wings accepts it (`755`, `0644`), or null. */
function parseMode(mode: string): number | null {
  return /^[0-7]{1,4}$/.test(mode) ? parseInt(mode, 8) : null;
}

interface Ctx<T> {
  s: Server;
  body: T;
  files: ServerFiles;
  reply: FastifyReply;
}

/**
 * The rest of Wings' file routes (protocol §2.2): rename, copy, create-directory, delete, compress,
 * decompress, chmod. Each is the server lookup and the body check (once, in `route`), then the
 * shared operations of `fs/server-files.ts` (the same SFTP uses) or `fs/archive.ts`.
 */
export function registerFileOperationRoutes(
  app: FastifyInstance,
  config: DaemonConfig,
  withServer: WithServer,
): void {
  const prefix = '/api/servers/:server/files';
  const route =
    <T>(schema: z.ZodType<T>, fn: (ctx: Ctx<T>) => Promise<unknown>) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const s = withServer(req, reply);
      if (!s) return reply;
      const body = parse(schema, req, reply);
      if (!body) return reply;
      return fn({ s, body, files: filesOf(s, runtimeOwner(config.runtime), requestFileScope(req)), reply });
    };

  app.put(
    `${prefix}/rename`,
    route(schemas.rename, async ({ body, files, reply }) => {
      const list = body.files ?? [];
      if (list.length === 0) throw new ServerError(MESSAGES.renameEmpty, 422);
      const pairs = list.map((f) => ({ from: under(body.root, f.from), to: under(body.root, f.to) }));
      for (const p of pairs) files.checkAllowed(p.from, p.to);
      for (const p of pairs) {
        try {
          await files.rename(p.from, p.to); // a missing source is skipped, as in Wings
        } catch (err) {
          if (err instanceof FileError && err.kind === 'exists')
            throw new ServerError(MESSAGES.renameExists, 400);
          throw err;
        }
      }
      return reply.code(204).send();
    }),
  );

  app.post(
    `${prefix}/copy`,
    route(schemas.copy, async ({ body, files, reply }) => {
      await files.copy(body.location);
      return reply.code(204).send();
    }),
  );

  app.post(
    `${prefix}/create-directory`,
    route(schemas.createDirectory, async ({ body, files, reply }) => {
      await files.mkdir(under(body.path, body.name));
      return reply.code(204).send();
    }),
  );

  app.post(
    `${prefix}/delete`,
    route(schemas.delete, async ({ body, files, reply }) => {
      const list = body.files ?? [];
      if (list.length === 0) throw new ServerError(MESSAGES.deleteEmpty, 422);
      const targets = list.map((f) => under(body.root, f));
      // The root is refused before anything is deleted.
      if (targets.some((t) => files.jail.parts(t).length === 0)) {
        throw new FileError('outside_root', 'deleting the root');
      }
      for (const t of targets) await files.delete(t); // missing entries are ignored, as in Wings
      return reply.code(204).send();
    }),
  );

  app.post(
    `${prefix}/compress`,
    route(schemas.compress, async ({ body, files }) => {
      const list = body.files ?? [];
      if (list.length === 0) throw new ServerError(MESSAGES.compressEmpty, 422);
      if (await files.overQuota()) throw new ServerError(MESSAGES.compressFull, 409);
      const { name, stat } = await files.compress(body.root ?? '/', list);
      return fileObject(name, stat, 'application/tar+gzip');
    }),
  );

  app.post(
    `${prefix}/decompress`,
    route(schemas.decompress, async ({ body, files, reply }) => {
      try {
        await files.decompress(body.root ?? '/', under(body.root, body.file), {
          maxBytes: config.system.decompress_max_bytes,
          maxEntries: config.system.decompress_max_entries,
        });
      } catch (err) {
        if (err instanceof UnknownArchive) throw new ServerError(MESSAGES.unknownArchive, 400);
        if (err instanceof ArchiveTooLarge) throw new ServerError(err.message, 400);
        if ((err as NodeJS.ErrnoException).code === 'ETXTBSY') {
          throw new ServerError(
            'One or more files this archive is attempting to overwrite are currently in use by another process. Please try again.',
            400,
          );
        }
        throw err;
      }
      return reply.code(204).send();
    }),
  );

  app.post(
    `${prefix}/chmod`,
    route(schemas.chmod, async ({ body, files, reply }) => {
      const list = body.files ?? [];
      if (list.length === 0) throw new ServerError(MESSAGES.chmodEmpty, 422);
      // Every mode is checked before any file is changed (set-id bits are `bad_mode`).
      const changes = list.map((f) => {
        const mode = parseMode(f.mode);
        if (mode === null) throw new ServerError(MESSAGES.badMode, 400);
        checkMode(mode);
        return { file: under(body.root, f.file), mode };
      });
      for (const c of changes) await files.chmod(c.file, c.mode); // missing files are ignored, as in Wings
      return reply.code(204).send();
    }),
  );
}
