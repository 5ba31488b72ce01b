import { randomUUID } from 'node:crypto';
import { can, ignoredLines } from '@talon/shared';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.ts';
import { nodeUrl, type DaemonClient } from '../../daemon-client/daemon-client.ts';
import type { Backup, Node, Server } from '../../db/types.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { signDaemonToken } from '../../lib/jwt.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { UsableServerAccess } from '../servers/server-access.ts';
import type { ServersRepository } from '../servers/servers.repository.ts';
import { scopeClaim } from '../files/file-scope.ts';
import { userServerTokenId } from '../servers/token-id.ts';
import type { BackupsRepository } from './backups.repository.ts';

/** What starts a backup: a user through the API, or the schedule runner. */
export interface BackupOptions {
  /** null or blank: `Backup at YYYY-MM-DD HH:MM:SS` */
  name?: string | null;
  /** newline-separated gitignore patterns; empty lines are dropped */
  ignored?: string | null;
  locked?: boolean;
  /** who is recorded in the activity log; the system (no user) when absent */
  actor?: ActivityActor;
  /**
   * A scheduled backup at the limit deletes the oldest unlocked successful backup first; a user's
   * backup never does (reference §3.3 and the schedule semantics).
   */
  scheduled: boolean;
}

const DOWNLOAD_URL_SECONDS = 15 * 60;
const SYSTEM_ACTOR: ActivityActor = { userId: null, apiKeyId: null, ip: null };

/**
 * Starting and removing backups, shared by the client API and the schedule runner: the throttle
 * (BACKUP_THROTTLE_*), the limit (`backup_limit`) with its rotation for scheduled backups, the
 * daemon calls and the activity log.
 */
export class BackupsService {
  constructor(
    private readonly repo: BackupsRepository,
    private readonly servers: ServersRepository,
    private readonly daemon: DaemonClient,
    private readonly activity: ActivityService,
    private readonly config: Pick<Config, 'backups' | 'timezone' | 'appUrl'>,
    private readonly log: Logger,
  ) {}

  /** Starts a backup of `server` (the schedule runner's entry point; the client route uses it too). */
  async createBackup(server: Server, opts: BackupOptions, node?: Node): Promise<Backup> {
    const target = node ?? (await this.nodeOf(server));
    await this.checkThrottle(server);
    await this.makeRoom(server, opts.scheduled, target);
    const ignored = ignoredLines(opts.ignored);
    const name = opts.name?.trim() ? opts.name.trim() : defaultName(new Date(), this.config.timezone);
    // Checked again with the row's insertion, under the server's lock: of two requests racing for
    // the last place (or throttle slot), the second is refused.
    const backup = await this.repo.insertChecked(
      {
        server_id: server.id,
        uuid: randomUUID(),
        name,
        ignored_files: JSON.stringify(ignored),
        is_locked: opts.locked ? 1 : 0,
        disk: 'wings',
      },
      nowIso(),
      async (tx) => {
        await this.checkThrottle(server, tx);
        await this.checkLimit(server, tx);
      },
    );
    try {
      await this.daemon.createBackup(target, server.uuid, {
        adapter: 'wings',
        uuid: backup.uuid,
        ignore: ignored.join('\n'),
      });
    } catch (err) {
      // The daemon never started it: no row is left to count against the limit or the throttle.
      await this.repo.remove(backup.id);
      throw err;
    }
    await this.activity.log('server:backup.start', opts.actor ?? SYSTEM_ACTOR, subjects(server, backup), {
      name: backup.name,
      locked: backup.is_locked === 1,
      ...(opts.scheduled ? { scheduled: true } : {}),
    });
    return backup;
  }

  /**
   * The client API's create: `is_locked` is honoured only for a caller who may also delete backups
   * (`backup.delete`); otherwise the backup is created unlocked.
   */
  createForUser(
    server: Server,
    node: Node,
    permissions: readonly string[],
    input: { name?: string | null; ignored?: string | null; is_locked?: boolean | null },
    actor: ActivityActor,
  ): Promise<Backup> {
    const locked = input.is_locked === true && can(permissions, 'backup.delete');
    return this.createBackup(
      server,
      { name: input.name, ignored: input.ignored, locked, actor, scheduled: false },
      node,
    );
  }

  /**
   * A signed, one-time URL of the daemon serving the archive (15 minutes; claims `backup_uuid` and
   * `server_uuid`, signed like the file download URLs). Only a finished, successful backup has an
   * archive: anything else is refused here rather than sent to the daemon for a 404 (our addition).
   */
  async downloadUrl(access: UsableServerAccess, backup: Backup, actor: ActivityActor): Promise<string> {
    if (backup.disk !== 'wings') {
      throw errors.badRequest(
        'The backup requested references an unknown disk driver type and cannot be downloaded.',
      );
    }
    if (backup.is_successful !== 1 || backup.completed_at === null) {
      throw errors.badRequest('This backup cannot be downloaded at this time: not completed or failed.');
    }
    const { node, server, user } = access;
    const token = await signDaemonToken(
      {
        scope: 'backup-download',
        seconds: DOWNLOAD_URL_SECONDS,
        key: this.daemon.token(node),
        jti: userServerTokenId(user.id, server.uuid),
      },
      {
        iss: this.config.appUrl,
        aud: [nodeUrl(node)],
        backup_uuid: backup.uuid,
        server_uuid: server.uuid,
        // A folder-scoped subuser's folders: the daemon applies them to the archive's entries too.
        ...scopeClaim(access),
        user_uuid: user.uuid,
        user_id: user.id,
        unique_id: randomAlnum(16),
      },
    );
    await this.activity.log('server:backup.download', actor, subjects(server, backup), { name: backup.name });
    return `${nodeUrl(node)}/download/backup?token=${token}`;
  }

  /** Toggles `is_locked` (event `server:backup.lock` / `unlock`). */
  async toggleLock(server: Server, backup: Backup, actor: ActivityActor): Promise<Backup> {
    const updated = await this.repo.update(backup.id, {
      is_locked: backup.is_locked === 1 ? 0 : 1,
      updated_at: nowIso(),
    });
    await this.activity.log(
      updated.is_locked === 1 ? 'server:backup.lock' : 'server:backup.unlock',
      actor,
      subjects(server, backup),
      { name: backup.name },
    );
    return updated;
  }

  /**
   * Restores a finished, successful backup. Unlike the reference, a backup that completed but failed
   * is refused too (compatibility quirk 9): it has no archive to restore. The server is marked
   * `restoring_backup` before the daemon is asked (it stops a running server first) and put back
   * when the daemon refuses; the daemon's report clears it.
   */
  async restore(server: Server, node: Node, backup: Backup, truncate: boolean, actor: ActivityActor) {
    if (server.status !== null) {
      throw errors.badRequest(
        'This server is not currently in a state that allows for a backup to be restored.',
      );
    }
    if (backup.is_successful !== 1 || backup.completed_at === null) {
      throw errors.badRequest('This backup cannot be restored at this time: not completed or failed.');
    }
    await this.servers.update(server.id, { status: 'restoring_backup', updated_at: nowIso() });
    try {
      await this.daemon.restoreBackup(node, server.uuid, backup.uuid, {
        adapter: 'wings',
        truncate_directory: truncate,
      });
    } catch (err) {
      await this.servers.update(server.id, { status: null, updated_at: nowIso() });
      throw err;
    }
    await this.activity.log('server:backup.restore', actor, subjects(server, backup), {
      name: backup.name,
      truncate,
    });
  }

  /**
   * Deletes a backup: refused while locked, successful and completed (a locked backup that failed
   * or is still running can go). The daemon's archive is removed first (a daemon without it is
   * fine), then the row is soft-deleted (the throttle still counts it).
   */
  async delete(server: Server, node: Node, backup: Backup, actor: ActivityActor): Promise<void> {
    if (backup.is_locked === 1 && backup.is_successful === 1 && backup.completed_at !== null) {
      throw errors.badRequest('Cannot delete a backup that is marked as locked.', 'BackupLockedException');
    }
    await this.remove(server, node, backup);
    await this.activity.log('server:backup.delete', actor, subjects(server, backup), {
      name: backup.name,
      failed: backup.completed_at !== null && backup.is_successful !== 1,
    });
  }

  /** Removes every archive of a server that is being deleted (its rows go with the server). */
  async deleteAllOf(server: Server, node: Node): Promise<void> {
    for (const backup of await this.repo.allOfServer(server.id)) await this.remove(server, node, backup);
  }

  private async remove(server: Server, node: Node, backup: Backup): Promise<void> {
    try {
      await this.daemon.deleteBackup(node, server.uuid, backup.uuid);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 404)) throw err;
    }
    await this.repo.softDelete(backup.id, nowIso());
  }

  /**
   * At most `throttleLimit` non-failed backups (deleted ones included) per `throttlePeriodSeconds`;
   * 429 with `Retry-After` = when the oldest of them leaves the window. A period of 0 disables it.
   */
  private async checkThrottle(server: Server, repo: BackupsRepository = this.repo): Promise<void> {
    const { throttleLimit: limit, throttlePeriodSeconds: period } = this.config.backups;
    if (period <= 0) return;
    const now = Date.now();
    const since = new Date(now - period * 1000).toISOString();
    const recent = await repo.recentCreations(server.id, since);
    if (recent.length < limit) return;
    const frees = Date.parse(recent[recent.length - limit]!) + period * 1000;
    throw new HttpError(
      429,
      'TooManyRequestsHttpException',
      `Only ${limit} backups may be generated within a ${period} second span of time.`,
      { 'retry-after': String(Math.max(1, Math.ceil((frees - now) / 1000))) },
    );
  }

  /**
   * The limit: `backup_limit` 0 or null allows none; at the limit a user's backup is refused, a
   * scheduled one first deletes the oldest unlocked successful backup (refused when there is none).
   */
  private async makeRoom(server: Server, scheduled: boolean, node: Node): Promise<void> {
    const limit = server.backup_limit ?? 0;
    if (limit <= 0) throw tooManyBackups(limit);
    if ((await this.repo.countNonFailed(server.id)) < limit) return;
    const oldest = scheduled ? await this.repo.oldestRotatable(server.id) : undefined;
    if (!oldest) throw tooManyBackups(limit);
    await this.remove(server, node, oldest);
    await this.activity.log('server:backup.delete', SYSTEM_ACTOR, subjects(server, oldest), {
      name: oldest.name,
      rotated: true,
    });
    this.log.info(
      { server: server.uuid, backup: oldest.uuid },
      'rotated the oldest backup out for a scheduled one',
    );
  }

  /** The limit as the new row is inserted (a rotation made room before). */
  private async checkLimit(server: Server, repo: BackupsRepository): Promise<void> {
    const limit = server.backup_limit ?? 0;
    if ((await repo.countNonFailed(server.id)) >= limit) throw tooManyBackups(limit);
  }

  private async nodeOf(server: Server): Promise<Node> {
    const node = await this.servers.findNode(server.node_id);
    if (!node) throw errors.notFound();
    return node;
  }
}

function tooManyBackups(limit: number): HttpError {
  return errors.display(
    `Cannot create a new backup, this server has reached its limit of ${limit} backups.`,
    'TooManyBackupsException',
  );
}

export function subjects(server: Pick<Server, 'id'>, backup: Pick<Backup, 'id'>) {
  return [
    { type: 'server', id: server.id },
    { type: 'backup', id: backup.id },
  ];
}

/** `Backup at 2026-11-25 18:30:00` in the panel's timezone (APP_TIMEZONE). */
export function defaultName(at: Date, timeZone: string): string {
  // The Swedish locale writes dates as ISO 8601 (`2026-11-25 18:30:00`).
  const text = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `Backup at ${text}`;
}
