import { remoteDownloadAttributes } from '@talon/shared/wings/remote-download';
import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import { list } from '../../http/envelope.ts';
import { check } from '../../http/input.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { PermittedServerAccess } from '../servers/server-access.ts';
import { fileScope, isInside, requireInsideUnder } from './file-scope.ts';

interface PullBody {
  url: string;
  directory?: string | null;
  filename?: string | null;
  use_header?: boolean | null;
  foreground?: boolean | null;
}

/**
 * Remote file download into a server (reference §3.3 `files/pull`). The daemon checks the address
 * (no internal networks, every redirect again), the name and the disk; the panel validates the
 * request, forwards it and logs it. Background pulls answer at once; foreground ones once the file
 * is complete.
 */
export class FilePullService {
  constructor(
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
  ) {}

  async pull(access: PermittedServerAccess, body: unknown, actor: ActivityActor): Promise<void> {
    const input = check<PullBody>(body, {
      url: 'required|string|url',
      directory: 'nullable|string',
      filename: 'nullable|string',
      use_header: 'boolean',
      foreground: 'boolean',
    });
    // A folder-scoped subuser pulls into their folders only (403 otherwise).
    requireInsideUnder(access, input.directory ?? '/', input.filename ?? '.');
    // The reference's forwarding: `directory` becomes `root` ("/" by default), nulls are left out.
    await this.daemon.withFileScope(fileScope(access)).pullFile(access.node, access.server.uuid, {
      url: input.url,
      root: input.directory ?? '/',
      ...(input.filename ? { file_name: input.filename } : {}),
      ...(input.use_header != null ? { use_header: input.use_header } : {}),
      ...(input.foreground != null ? { foreground: input.foreground } : {}),
    });
    await this.activity.log('server:file.pull', actor, [{ type: 'server', id: access.server.id }], {
      directory: input.directory ?? '/',
      url: input.url,
    });
  }

  /** The server's running downloads with their progress (our extension, for the file manager). */
  async running(access: PermittedServerAccess) {
    const entries = await this.daemon.pullDownloads(access.node, access.server.uuid);
    // A folder-scoped subuser sees only the downloads into their folders.
    const shown = entries.filter((e) => isInside(access, e.Directory ?? '/'));
    return list('remote_download', shown.map(remoteDownloadAttributes));
  }
}
