import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DaemonConfig } from '../config/config.ts';
import { UnknownArchive, compress, decompress } from '../fs/archive.ts';
import { denylistFor } from '../fs/denylist.ts';
import { FileError } from '../fs/errors.ts';
import { fileObject } from '../fs/file-object.ts';
import {
  DestinationExists,
  chmodEntry,
  copyFile,
  createDirectory,
  deleteEntry,
  joined,
  parseMode,
  renameEntry,
} from '../fs/operations.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';
import { jailOf } from './files.ts';

const MIB = 1024 * 1024;
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

/** Bytes the server may still write, or null without a limit. */
async function room(s: Server): Promise<number | null> {
  const limit = s.config.settings.build.disk_space * MIB;
  if (limit <= 0) return null;
  return Math.max(0, limit - (await s.disk.current()));
}

/**
 * The rest of Wings' file routes (protocol §2.2): rename, copy, create-directory, delete, compress,
 * decompress, chmod. The work happens in `fs/operations.ts` and `fs/archive.ts`; every path goes
 * through the jail.
 */
export function registerFileOperationRoutes(
  app: FastifyInstance,
  config: DaemonConfig,
  withServer: WithServer,
): void {
  const prefix = '/api/servers/:server/files';

  app.put(`${prefix}/rename`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.rename, req, reply);
    if (!body) return reply;
    const files = body.files ?? [];
    if (files.length === 0) throw new ServerError(MESSAGES.renameEmpty, 422);
    const jail = jailOf(s, config);
    const deny = denylistFor(s.config.settings.egg?.file_denylist);
    const pairs = files.map((f) => ({
      from: joined(jail, body.root ?? '/', f.from),
      to: joined(jail, body.root ?? '/', f.to),
    }));
    for (const p of pairs) {
      if (deny.denies(p.from) || deny.denies(p.to)) throw new FileError('denylist', p.from.join('/'));
    }
    for (const p of pairs) {
      try {
        await renameEntry(jail, p.from, p.to);
      } catch (err) {
        if (err instanceof DestinationExists) throw new ServerError(MESSAGES.renameExists, 400);
        throw err;
      }
    }
    return reply.code(204).send();
  });

  app.post(`${prefix}/copy`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.copy, req, reply);
    if (!body) return reply;
    const jail = jailOf(s, config);
    const parts = jail.parts(body.location);
    if (denylistFor(s.config.settings.egg?.file_denylist).denies(parts)) {
      throw new FileError('denylist', body.location);
    }
    const { size } = await copyFile(jail, parts, async (n) => {
      const r = await room(s);
      if (r !== null && n > r) throw new FileError('no_space', `copy of ${body.location}`);
    });
    s.disk.adjust(size);
    return reply.code(204).send();
  });

  app.post(`${prefix}/create-directory`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.createDirectory, req, reply);
    if (!body) return reply;
    const jail = jailOf(s, config);
    await createDirectory(jail, joined(jail, body.path ?? '/', body.name));
    return reply.code(204).send();
  });

  app.post(`${prefix}/delete`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.delete, req, reply);
    if (!body) return reply;
    const files = body.files ?? [];
    if (files.length === 0) throw new ServerError(MESSAGES.deleteEmpty, 422);
    const jail = jailOf(s, config);
    const targets = files.map((f) => joined(jail, body.root ?? '/', f));
    // The root is refused before anything is deleted.
    if (targets.some((t) => t.length === 0)) throw new FileError('outside_root', 'deleting the root');
    for (const t of targets) s.disk.adjust(-(await deleteEntry(jail, t)));
    return reply.code(204).send();
  });

  app.post(`${prefix}/compress`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.compress, req, reply);
    if (!body) return reply;
    const files = body.files ?? [];
    if (files.length === 0) throw new ServerError(MESSAGES.compressEmpty, 422);
    const limit = s.config.settings.build.disk_space * MIB;
    const used = limit > 0 ? await s.disk.current() : 0;
    if (limit > 0 && used > limit) throw new ServerError(MESSAGES.compressFull, 409);
    const jail = jailOf(s, config);
    const rootParts = jail.parts(body.root ?? '/');
    const { name, stat } = await compress(jail, rootParts, files, 1);
    if (limit > 0 && used + stat.size > limit) {
      await deleteEntry(jail, [...rootParts, name]);
      throw new FileError('no_space', `archive of ${stat.size} bytes`);
    }
    s.disk.adjust(stat.size);
    return fileObject(name, stat, 'application/tar+gzip');
  });

  app.post(`${prefix}/decompress`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.decompress, req, reply);
    if (!body) return reply;
    const jail = jailOf(s, config);
    const rootParts = jail.parts(body.root ?? '/');
    try {
      const written = await decompress(jail, rootParts, joined(jail, body.root ?? '/', body.file), {
        denylist: denylistFor(s.config.settings.egg?.file_denylist),
        room: await room(s),
      });
      s.disk.adjust(written);
    } catch (err) {
      if (err instanceof UnknownArchive) throw new ServerError(MESSAGES.unknownArchive, 400);
      if ((err as NodeJS.ErrnoException).code === 'ETXTBSY') {
        throw new ServerError(
          'One or more files this archive is attempting to overwrite are currently in use by another process. Please try again.',
          400,
        );
      }
      throw err;
    }
    return reply.code(204).send();
  });

  app.post(`${prefix}/chmod`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    const body = parse(schemas.chmod, req, reply);
    if (!body) return reply;
    const files = body.files ?? [];
    if (files.length === 0) throw new ServerError(MESSAGES.chmodEmpty, 422);
    const jail = jailOf(s, config);
    // Every mode is checked before any file is changed.
    const changes = files.map((f) => {
      const mode = parseMode(f.mode);
      if (mode === null) throw new ServerError(MESSAGES.badMode, 400);
      return { parts: joined(jail, body.root ?? '/', f.file), mode };
    });
    for (const c of changes) await chmodEntry(jail, c.parts, c.mode);
    return reply.code(204).send();
  });
}
