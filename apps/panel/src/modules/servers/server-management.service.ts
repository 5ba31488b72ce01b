import type { Server } from '../../db/types.ts';
import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { BackupsService } from '../backups/backups.service.ts';
import type { ServersRepository } from './servers.repository.ts';

export interface ServerDatabasesDropper {
  dropAllForServer(server: Pick<Server, 'id'>, force: boolean): Promise<void>;
}

/** What operators do to a server as a whole: suspend, reinstall, delete. */
export class ServerManagementService {
  constructor(
    private readonly servers: ServersRepository,
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
    private readonly backups: BackupsService,
    /** drops the server's databases on their hosts (modules/databases) */
    private readonly databases?: ServerDatabasesDropper,
  ) {}

  async get(id: number): Promise<Server> {
    const server = await this.servers.findById(id);
    if (!server) throw errors.notFound();
    return server;
  }

  private async node(server: Server) {
    const node = await this.servers.findNode(server.node_id);
    if (!node) throw errors.notFound();
    return node;
  }

  /** Idempotent; the daemon is told at once, and the change is undone if it cannot be told. */
  async setSuspended(server: Server, suspended: boolean, actor: ActivityActor): Promise<void> {
    if ((server.status === 'suspended') === suspended) return;
    const previous = server.status;
    await this.servers.update(server.id, { status: suspended ? 'suspended' : null, updated_at: nowIso() });
    try {
      await this.daemon.sync(await this.node(server), server.uuid);
    } catch (e) {
      await this.servers.update(server.id, { status: previous });
      throw e;
    }
    await this.activity.log(suspended ? 'server:suspend' : 'server:unsuspend', actor, [
      { type: 'server', id: server.id },
    ]);
  }

  async reinstall(server: Server, actor: ActivityActor): Promise<void> {
    const previous = server.status;
    await this.servers.update(server.id, { status: 'installing', updated_at: nowIso() });
    try {
      await this.daemon.reinstall(await this.node(server), server.uuid);
    } catch (e) {
      await this.servers.update(server.id, { status: previous });
      throw e;
    }
    await this.activity.log('server:reinstall', actor, [{ type: 'server', id: server.id }]);
  }

  /** The last install's log the server's node kept, or null when it has none (admin server view). */
  async installLog(server: Server): Promise<string | null> {
    return this.daemon.installLog(await this.node(server), server.uuid);
  }

  /** The daemon forgets the server first (a daemon that no longer knows it is fine); `force` ignores daemon errors. */
  async delete(server: Server, force: boolean, actor: ActivityActor): Promise<void> {
    try {
      const node = await this.node(server);
      // The archives first, while the daemon still knows the server (its backup routes need it).
      await this.backups.deleteAllOf(server, node);
      await this.daemon.deleteServer(node, server.uuid);
    } catch (e) {
      const gone = e instanceof HttpError && e.status === 404;
      if (!gone && !force) throw e;
    }
    // Then its databases on their hosts (a host failure stops a normal delete; reference §5.5).
    await this.databases?.dropAllForServer(server, force);
    await this.servers.delete(server.id);
    await this.activity.log('server:delete', actor, [], { uuid: server.uuid, name: server.name });
  }
}
