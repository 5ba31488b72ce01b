import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DaemonConfig } from '../config/config.ts';
import { FileError } from '../fs/errors.ts';
import type { StagedWrite } from '../fs/server-files.ts';
import type { ServerManager } from '../servers/manager.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';
import { contentDisposition, query, serverFiles } from './files.ts';
import { UPLOAD, receiveUploads } from './multipart-upload.ts';

export const SIGNED = {
  invalidToken: 'The token provided is not valid or has expired.',
  notFound: 'The requested resource was not found on this server.',
  notMultipart: UPLOAD.notMultipart,
  noFiles: 'No files were found on the request body.',
};

export class TokenError extends Error {}

const claimsSchema = z.object({
  server_uuid: z.string(),
  unique_id: z.string().optional(),
  file_path: z.string().optional(),
  exp: z.number(),
  nbf: z.number().optional(),
  user_uuid: z.string().optional(),
});
export type SignedClaims = z.infer<typeof claimsSchema>;

/**
 * Verify a panel-signed URL token (protocol §4, panel reference §3.4): HS256 with the node token,
 * the header must say HS256, `exp` required and in the future, `nbf` (when present) not in the
 * future. Anything else is a TokenError.
 */
export function verifySignedToken(
  token: string,
  secret: string,
  nowSeconds = Date.now() / 1000,
): SignedClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]*$/.test(p)))
    throw new TokenError('malformed');
  const [h, p, sig] = parts as [string, string, string];
  let header: unknown;
  let payload: unknown;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    throw new TokenError('malformed');
  }
  if ((header as { alg?: unknown } | null)?.alg !== 'HS256') throw new TokenError('algorithm');
  const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new TokenError('signature');
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw new TokenError('claims');
  if (claims.data.exp <= nowSeconds) throw new TokenError('expired');
  if (claims.data.nbf !== undefined && claims.data.nbf > nowSeconds + 60)
    throw new TokenError('not yet valid');
  return claims.data;
}

/** `unique_id`s already used (download and upload share it), remembered 60 minutes. */
class UsedTokens {
  private readonly used = new Map<string, number>();

  /** Record the id; false when it was already used. */
  take(id: string | undefined, now = Date.now()): boolean {
    for (const [k, t] of this.used) if (now - t > 60 * 60_000) this.used.delete(k);
    if (id === undefined) return true;
    if (this.used.has(id)) return false;
    this.used.set(id, now);
    return true;
  }
}

/**
 * The token-authenticated routes (protocol §4.1, §4.3): `GET /download/file` and
 * `POST /upload/file`. They carry no bearer token (`config.signedUrl` skips that check); the JWT in
 * the query is the credential, bound to one server and used once.
 */
export function registerSignedUrlRoutes(
  app: FastifyInstance,
  config: DaemonConfig,
  manager: ServerManager,
): void {
  const used = new UsedTokens();

  const authorise = (
    req: FastifyRequest,
    reply: FastifyReply,
  ): { s: Server; claims: SignedClaims } | null => {
    let claims: SignedClaims;
    try {
      claims = verifySignedToken(query(req, 'token'), config.token);
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      void reply.code(403).send({ error: SIGNED.invalidToken });
      return null;
    }
    const s = manager.get(claims.server_uuid);
    if (!s || !used.take(claims.unique_id)) {
      void reply.code(404).send({ error: SIGNED.notFound });
      return null;
    }
    return { s, claims };
  };

  app.get('/download/file', { config: { signedUrl: true } }, async (req, reply) => {
    const ok = authorise(req, reply);
    if (!ok) return reply;
    let opened;
    try {
      opened = await serverFiles(ok.s, config).jail.openRead(ok.claims.file_path ?? '');
    } catch (err) {
      if (err instanceof FileError && err.kind === 'is_directory') {
        return reply.code(404).send({ error: SIGNED.notFound });
      }
      throw err;
    }
    const { handle, stat, name } = opened;
    void reply
      .header('Content-Length', String(stat.size))
      .header('Content-Disposition', contentDisposition(name))
      .type('application/octet-stream');
    if (stat.size === 0) {
      await handle.close();
      return reply.send(Buffer.alloc(0));
    }
    return reply.send(handle.createReadStream({ start: 0, end: stat.size - 1 }));
  });

  void app.register(async (scope) => {
    // The body is read by busboy from the raw request; no parser consumes it first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    scope.post('/upload/file', { config: { signedUrl: true } }, async (req, reply) => {
      const ok = authorise(req, reply);
      if (!ok) return reply;
      const { s } = ok;
      if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
        throw new ServerError(SIGNED.notMultipart, 400);
      }
      const files = serverFiles(s, config);
      const directory = query(req, 'directory');
      // Each part is staged under the server's write rules (denylist, quota as the bytes arrive).
      const stage = async (filename: string): Promise<StagedWrite> => {
        const base = path.posix.basename(filename.replace(/\\/g, '/'));
        if (base === '' || base === '.' || base === '..')
          throw new FileError('not_found', `file name ${filename}`);
        return files.stage(path.posix.join('/', directory, base));
      };
      let staged: StagedWrite[];
      try {
        staged = await receiveUploads(
          req,
          {
            fileMb: config.api.upload_limit,
            maxFiles: config.api.upload_max_files,
            requestMb: config.api.upload_request_limit,
          },
          stage,
        );
      } catch (err) {
        // The rest of a refused body is not read: the connection ends with the answer.
        void reply.header('Connection', 'close');
        throw err;
      }
      if (staged.length === 0) throw new ServerError(SIGNED.noFiles, 400);
      // Every file arrived whole and within the limits: only now do they take their names.
      try {
        for (const f of staged) await f.commit();
      } finally {
        await Promise.all(staged.map((f) => f.discard()));
      }
      return reply.code(200).send();
    });
  });
}
