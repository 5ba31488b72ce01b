import type { ClientFileObject } from '@talon/shared';
import { nodeUrl, type DaemonClient, type DaemonFileObject } from '../../daemon-client/daemon-client.ts';
import { item, list } from '../../http/envelope.ts';
import { errors } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { signDaemonToken } from '../../lib/jwt.ts';
import { atom } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { PermittedServerAccess, UsableServerAccess } from '../servers/server-access.ts';
import { fileScope, listingFilter, requireInside, requireInsideUnder, scopeClaim } from './file-scope.ts';
import { userServerTokenId } from '../servers/token-id.ts';

/**
 * A server's files through the client API (reference §3.3 "Files"). Every call is proxied to the
 * server's daemon, which jails the paths. The route's guard has checked the server's state (409);
 * each method checks the permission (403), then its input (422).
 */
export class FilesService {
  constructor(
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
    private readonly maxEditSize: number,
    /** `iss` of the signed download/upload URLs (APP_URL). */
    private readonly appUrl = '',
  ) {}

  /** The file's text; files over the edit size are refused before their bytes are downloaded. */
  async contents(access: PermittedServerAccess, query: unknown, actor: ActivityActor): Promise<Buffer> {
    const { file } = check<{ file: string }>(query, { file: 'required|string' });
    requireInside(access, file);
    const body = await this.daemonFor(access).fileContents(
      access.node,
      access.server.uuid,
      file,
      this.maxEditSize,
    );
    if (!body) {
      throw errors.badRequest(
        'The file you are attempting to open is too large to view in the file editor.',
        'FileSizeTooLargeException',
      );
    }
    await this.activity.log('server:file.read', actor, [{ type: 'server', id: access.server.id }], { file });
    return body;
  }

  /** Creates or replaces a file with the raw request body (which may be empty). */
  async write(
    access: PermittedServerAccess,
    query: unknown,
    body: unknown,
    actor: ActivityActor,
  ): Promise<void> {
    const { file } = check<{ file: string }>(query, { file: 'required|string' });
    requireInside(access, file);
    const content = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    await this.daemonFor(access).writeFile(access.node, access.server.uuid, file, content);
    await this.activity.log('server:file.write', actor, [{ type: 'server', id: access.server.id }], { file });
  }

  /** A directory's entries (reference §3.3: `file_object` list). */
  async list(access: PermittedServerAccess, query: unknown) {
    const { directory } = check<{ directory?: string | null }>(query, { directory: 'nullable|string' });
    const shown = listingFilter(access, directory ?? '/');
    const entries = await this.daemonFor(access).listDirectory(
      access.node,
      access.server.uuid,
      directory ?? '/',
    );
    return list('file_object', entries.filter((e) => shown(e.name)).map(fileObject));
  }

  /** A signed, one-time download URL for the node (15 minutes). */
  async download(access: PermittedServerAccess, query: unknown, actor: ActivityActor) {
    const { file } = check<{ file: string }>(query, { file: 'required|string' });
    requireInside(access, file);
    const token = await this.signedToken(access, 'file-download', { file_path: file });
    await this.activity.log('server:file.download', actor, this.subject(access), { file });
    return item('signed_url', { url: `${nodeUrl(access.node)}/download/file?token=${token}` });
  }

  /** A signed, one-time upload URL for the node (15 minutes); the browser adds `directory`. */
  async upload(access: PermittedServerAccess) {
    const token = await this.signedToken(access, 'file-upload', {});
    return item('signed_url', { url: `${nodeUrl(access.node)}/upload/file?token=${token}` });
  }

  async rename(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { root, files } = check<{ root: string; files: { from: string; to: string }[] }>(body, {
      root: 'required|string',
      files: 'required|array',
      'files.*.from': 'required|string',
      'files.*.to': 'required|string',
    });
    const pairs = files.map((f) => ({ from: f.from, to: f.to }));
    requireInsideUnder(access, root, ...pairs.flatMap((p) => [p.from, p.to]));
    await this.daemonFor(access).renameFiles(access.node, access.server.uuid, root, pairs);
    await this.activity.log('server:file.rename', actor, this.subject(access), {
      directory: root,
      files: pairs,
    });
  }

  async copy(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { location } = check<{ location: string }>(body, { location: 'required|string' });
    requireInside(access, location);
    await this.daemonFor(access).copyFile(access.node, access.server.uuid, location);
    await this.activity.log('server:file.copy', actor, this.subject(access), { file: location });
  }

  async compress(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const { root, files } = check<{ root?: string | null; files: string[] }>(body, {
      root: 'nullable|string',
      files: 'required|array',
      'files.*': 'string',
    });
    requireInside(access, root ?? '/');
    requireInsideUnder(access, root ?? '/', ...files);
    const archive = await this.daemonFor(access).compressFiles(
      access.node,
      access.server.uuid,
      root ?? '/',
      files,
    );
    await this.activity.log('server:file.compress', actor, this.subject(access), {
      directory: root ?? '/',
      files,
    });
    return item('file_object', fileObject(archive));
  }

  async decompress(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { root, file } = check<{ root?: string | null; file: string }>(body, {
      root: 'nullable|string',
      file: 'required|string',
    });
    requireInside(access, root ?? '/');
    requireInsideUnder(access, root ?? '/', file);
    await this.daemonFor(access).decompressFile(access.node, access.server.uuid, root ?? '/', file);
    await this.activity.log('server:file.decompress', actor, this.subject(access), {
      directory: root ?? '/',
      file,
    });
  }

  async delete(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { root, files } = check<{ root: string; files: string[] }>(body, {
      root: 'required|string',
      files: 'required|array',
      'files.*': 'string',
    });
    requireInsideUnder(access, root, ...files);
    await this.daemonFor(access).deleteFiles(access.node, access.server.uuid, root, files);
    await this.activity.log('server:file.delete', actor, this.subject(access), { directory: root, files });
  }

  async createFolder(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { root, name } = check<{ root?: string | null; name: string }>(body, {
      root: 'nullable|string',
      name: 'required|string',
    });
    requireInsideUnder(access, root ?? '/', name);
    await this.daemonFor(access).createDirectory(access.node, access.server.uuid, name, root ?? '/');
    await this.activity.log('server:file.create-directory', actor, this.subject(access), {
      directory: root ?? '/',
      name,
    });
  }

  /** Modes are numbers in the request (e.g. 755) and octal strings for the daemon. */
  async chmod(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const { root, files } = check<{ root: string; files: { file: string; mode: string | number }[] }>(body, {
      root: 'required|string',
      files: 'required|array',
      'files.*.file': 'required|string',
      'files.*.mode': 'required|numeric',
    });
    const changes = files.map((f) => ({ file: f.file, mode: String(f.mode) }));
    requireInsideUnder(access, root, ...changes.map((c) => c.file));
    await this.daemonFor(access).chmodFiles(access.node, access.server.uuid, root, changes);
    await this.activity.log('server:file.chmod', actor, this.subject(access), {
      directory: root,
      files: changes,
    });
  }

  /** The daemon client for this caller: a folder-scoped subuser's requests carry the folders. */
  private daemonFor(access: UsableServerAccess): DaemonClient {
    return this.daemon.withFileScope(fileScope(access));
  }

  private subject(access: UsableServerAccess) {
    return [{ type: 'server', id: access.server.id }];
  }

  /**
   * The claims of reference §3.4 for a 15-minute download or upload token, signed with the node's
   * token; `scope` is the one route it opens (§9.2b).
   */
  private signedToken(
    access: UsableServerAccess,
    scope: 'file-download' | 'file-upload',
    extra: { file_path?: string },
  ): Promise<string> {
    const { node } = access;
    return signDaemonToken(
      {
        scope,
        seconds: SIGNED_URL_SECONDS,
        key: this.daemon.token(node),
        jti: userServerTokenId(access.user.id, access.server.uuid),
      },
      {
        iss: this.appUrl,
        aud: [nodeUrl(node)],
        ...extra,
        ...scopeClaim(access),
        server_uuid: access.server.uuid,
        user_uuid: access.user.uuid,
        user_id: access.user.id,
        unique_id: randomAlnum(16),
      },
    );
  }
}

const SIGNED_URL_SECONDS = 15 * 60;

/** Wings' file object as the client API shows it (reference §2.2 / FileObjectTransformer). */
function fileObject(f: DaemonFileObject): ClientFileObject {
  return {
    name: f.name,
    mode: f.mode,
    mode_bits: f.mode_bits,
    size: f.size,
    is_file: f.file,
    is_symlink: f.symlink,
    mimetype: f.mime,
    // Never null: the daemon client checked both are RFC 3339 times.
    created_at: atom(f.created)!,
    modified_at: atom(f.modified)!,
  };
}
