import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import { errors } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { requirePermission, type ServerAccess } from '../servers/server-access.ts';
import type { ServersService } from '../servers/servers.service.ts';

/**
 * A server's files through the client API (reference §3.3 "Files"). Every call is proxied to the
 * server's daemon, which jails the paths; the panel checks permissions and the server's state.
 */
export class FilesService {
  constructor(
    private readonly servers: ServersService,
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
    private readonly maxEditSize: number,
  ) {}

  /** The file's text; files over the edit size are refused before their bytes are downloaded. */
  async contents(access: ServerAccess, query: unknown, actor: ActivityActor): Promise<Buffer> {
    requirePermission(access, 'file.read-content');
    const { file } = check<{ file: string }>(query, { file: 'required|string' });
    const node = await this.servers.assertUsable(access);
    const body = await this.daemon.fileContents(node, access.server.uuid, file, this.maxEditSize);
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
  async write(access: ServerAccess, query: unknown, body: unknown, actor: ActivityActor): Promise<void> {
    requirePermission(access, 'file.create');
    const { file } = check<{ file: string }>(query, { file: 'required|string' });
    const node = await this.servers.assertUsable(access);
    const content = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    await this.daemon.writeFile(node, access.server.uuid, file, content);
    await this.activity.log('server:file.write', actor, [{ type: 'server', id: access.server.id }], { file });
  }
}
