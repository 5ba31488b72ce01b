import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signedUrlClaimsSchema, type SignedUrlClaims, type SignedUrlScope } from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import type { ActivityBatch } from '../panel/activity-batch.ts';
import { FileError } from '../fs/errors.ts';
import type { StagedWrite } from '../fs/server-files.ts';
import type { ServerManager } from '../servers/manager.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';
import { contentDisposition, query } from './files.ts';
import { UPLOAD, receiveUploads } from './multipart-upload.ts';
import { insideSignedScope, signedUrlFiles } from './signed-url-scope.ts';
import type { Denylist } from '../ws/denylist.ts';
import { JwtError, verifyHs256Payload } from '../ws/jwt.ts';
import { sendBackup } from '../backups/download.ts';

export const SIGNED = {
  invalidToken: 'The token provided is not valid or has expired.',
  notFound: 'The requested resource was not found on this server.',
  notMultipart: UPLOAD.notMultipart,
  noFiles: 'No files were found on the request body.',
  suspended: 'Cannot upload to a server that is suspended.',
};

export class TokenError extends Error {}

export type SignedClaims = SignedUrlClaims;

/**
 * Verify a panel-signed URL token (protocol §4, panel reference §3.4): `jose` checks the HS256
 * signature with the node token (any other algorithm, `none` included, is refused); the token's
 * `scope` must be the route's own (§9.2b: a console or download token never uploads); then `exp` is
 * required and must be in the future, and `nbf` (when present) not more than 60 s in the future
 * (clock skew between panel and node). Anything else is a TokenError.
 */
export async function verifySignedToken(
  token: string,
  secret: string,
  scope: SignedUrlScope,
  nowSeconds = Date.now() / 1000,
): Promise<SignedClaims> {
  let payload: unknown;
  try {
    payload = await verifyHs256Payload(token, secret);
  } catch (err) {
    throw err instanceof JwtError ? new TokenError(err.message) : err;
  }
  const claims = signedUrlClaimsSchema.safeParse(payload);
  if (!claims.success) throw new TokenError('claims');
  if (claims.data.scope !== scope) throw new TokenError(`scope ${claims.data.scope} is not ${scope}`);
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
  activity: ActivityBatch,
  /** revoked users' URLs are refused like invalid ones (the panel denies their jti) */
  denylist?: Denylist,
): void {
  const used = new UsedTokens();

  const authorise = async (
    req: FastifyRequest,
    reply: FastifyReply,
    scope: SignedUrlScope,
  ): Promise<{ s: Server; claims: SignedClaims } | null> => {
    let claims: SignedClaims;
    try {
      claims = await verifySignedToken(query(req, 'token'), config.token, scope);
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      void reply.code(403).send({ error: SIGNED.invalidToken });
      return null;
    }
    if (denylist?.isRevoked(claims)) {
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
    const ok = await authorise(req, reply, 'file-download');
    if (!ok) return reply;
    let opened;
    try {
      opened = await signedUrlFiles(ok.s, config, ok.claims).jail.openRead(
        insideSignedScope(ok.claims, ok.claims.file_path ?? ''),
      );
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

  app.get('/download/backup', { config: { signedUrl: true } }, async (req, reply) => {
    const ok = await authorise(req, reply, 'backup-download');
    if (!ok) return reply;
    // A URL must name its backup (a folder-scoped user's gets only their folders: sendBackup).
    if (ok.claims.backup_uuid === undefined) {
      return reply.code(403).send({ error: SIGNED.invalidToken });
    }
    return sendBackup(reply, config, ok.claims);
  });

  void app.register(async (scope) => {
    // The body is read by busboy from the raw request; no parser consumes it first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    scope.post('/upload/file', { config: { signedUrl: true } }, async (req, reply) => {
      const ok = await authorise(req, reply, 'file-upload');
      if (!ok) return reply;
      const { s } = ok;
      // An upload URL outlives a suspension that comes after it was handed out.
      if (s.suspended) {
        void reply.header('Connection', 'close');
        return reply.code(409).send({ error: SIGNED.suspended });
      }
      if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
        throw new ServerError(SIGNED.notMultipart, 400);
      }
      const files = signedUrlFiles(s, config, ok.claims);
      const directory = insideSignedScope(ok.claims, query(req, 'directory'));
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
      // Each file is an entry of the panel's activity log, as Wings reports it (protocol §4.3).
      const shownDirectory = path.posix.join('/', directory);
      for (const f of staged) {
        activity.record({
          user: ok.claims.user_uuid ?? null,
          server: s.uuid,
          event: 'server:file.uploaded',
          metadata: { file: path.posix.basename(f.path), directory: shownDirectory },
          ip: req.ip,
        });
      }
      return reply.code(200).send();
    });
  });
}
