import { createHash } from 'node:crypto';
import type { Config } from '../../config/config.ts';
import { DaemonClient, nodeUrl, type PowerAction } from '../../daemon-client/daemon-client.ts';
import { errors, HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { signHs256 } from '../../lib/jwt.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import {
  conflictError,
  requirePermission,
  serverConflict,
  socketPermissions,
  type ServerAccess,
} from './server-access.ts';
import type { ServersRepository } from './servers.repository.ts';

const SOCKET_TOKEN_SECONDS = 10 * 60;

/** What users do with one server through the client API: details, console token, stats, power. */
export class ServersService {
  constructor(
    private readonly repo: ServersRepository,
    readonly daemonClient: DaemonClient,
    private readonly activity: ActivityService,
    private readonly config: Config,
  ) {}

  private async node(access: ServerAccess) {
    const node = await this.repo.findNode(access.server.node_id);
    if (!node) throw errors.notFound();
    return node;
  }

  /** 409 when the server is suspended, installing, restoring or its node is in maintenance. */
  async assertUsable(access: ServerAccess) {
    const node = await this.node(access);
    const conflict = serverConflict(access.server, node.maintenance_mode === 1);
    if (conflict) throw conflictError(conflict);
    return node;
  }

  /** Credentials for the console websocket (reference §3.4): a 10-minute HS256 JWT. */
  async websocket(access: ServerAccess) {
    requirePermission(access, 'websocket.connect');
    const node = await this.node(access);
    const conflict = serverConflict(access.server, node.maintenance_mode === 1);
    // Root admins may still watch an installing or restoring server; nobody a suspended one.
    if (
      conflict &&
      (access.user.root_admin !== 1 || conflict === 'suspended' || conflict === 'maintenance')
    ) {
      throw conflictError(conflict);
    }
    const now = Math.floor(Date.now() / 1000);
    const jti = createHash('md5').update(`${access.user.id}${access.server.uuid}`).digest('hex');
    const token = signHs256(
      {
        iss: this.config.appUrl,
        aud: [nodeUrl(node)],
        jti,
        iat: now,
        nbf: now - 300,
        exp: now + SOCKET_TOKEN_SECONDS,
        server_uuid: access.server.uuid,
        permissions: socketPermissions(access),
        user_uuid: access.user.uuid,
        user_id: access.user.id,
        unique_id: randomAlnum(16),
      },
      this.daemonClient.token(node),
      { jti },
    );
    const socket = `${nodeUrl(node).replace(/^http/u, 'ws')}/api/servers/${access.server.uuid}/ws`;
    return { token, socket };
  }

  async resources(access: ServerAccess) {
    const node = await this.assertUsable(access);
    let state;
    try {
      state = await this.daemonClient.server(node, access.server.uuid);
    } catch (e) {
      // Every daemon failure of this endpoint answers 504, as the reference does.
      if (e instanceof HttpError) throw new HttpError(504, e.code, e.detail);
      throw e;
    }
    const u = state.utilization ?? {};
    return {
      current_state: state.state ?? 'stopped',
      is_suspended: state.is_suspended ?? false,
      resources: {
        memory_bytes: u.memory_bytes ?? 0,
        cpu_absolute: u.cpu_absolute ?? 0,
        disk_bytes: u.disk_bytes ?? 0,
        network_rx_bytes: u.network?.rx_bytes ?? 0,
        network_tx_bytes: u.network?.tx_bytes ?? 0,
        uptime: u.uptime ?? 0,
      },
    };
  }

  async command(access: ServerAccess, body: unknown, actor: ActivityActor) {
    requirePermission(access, 'control.console');
    const { command } = check<{ command: string }>(body, { command: 'required|string|min:1' });
    const node = await this.assertUsable(access);
    await this.daemonClient.commands(node, access.server.uuid, [command]);
    await this.activity.log('server:console.command', actor, [{ type: 'server', id: access.server.id }], {
      command,
    });
  }

  async power(access: ServerAccess, body: unknown, actor: ActivityActor) {
    const signal = (body as { signal?: unknown } | null)?.signal;
    // The permission is decided before validation, as the reference orders it.
    const needed: Record<string, string> = {
      start: 'control.start',
      stop: 'control.stop',
      kill: 'control.stop',
      restart: 'control.restart',
    };
    const anyPower = ['control.start', 'control.stop', 'control.restart'].some((p) =>
      access.permissions[0] === '*' ? true : access.permissions.includes(p),
    );
    if (!anyPower) throw errors.forbidden();
    check(body, { signal: 'required|string|in:start,stop,restart,kill' });
    requirePermission(access, needed[signal as string] ?? 'control.start');
    const node = await this.assertUsable(access);
    await this.daemonClient.power(node, access.server.uuid, signal as PowerAction);
    await this.activity.log(`server:power.${signal as string}`, actor, [
      { type: 'server', id: access.server.id },
    ]);
  }
}
