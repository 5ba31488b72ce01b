import type { ClientServerResources } from '@talon/shared';
import type { Config } from '../../config/config.ts';
import { DaemonClient, nodeUrl, type PowerAction } from '../../daemon-client/daemon-client.ts';
import { ServerStateCache } from '../../daemon-client/server-state-cache.ts';
import { HttpError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { signDaemonToken } from '../../lib/jwt.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { userServerTokenId } from './token-id.ts';
import { OWNER_ONLY, socketPermissions, type PermittedServerAccess } from './server-access.ts';

const SOCKET_TOKEN_SECONDS = 10 * 60;

/** What users do with one server through the client API: details, console token, stats, power. */
export class ServersService {
  /** What the daemons report of servers, shared between concurrent and close resource requests. */
  readonly states: ServerStateCache;

  constructor(
    readonly daemonClient: DaemonClient,
    private readonly activity: ActivityService,
    private readonly config: Config,
  ) {
    this.states = new ServerStateCache(daemonClient);
  }

  /**
   * Credentials for the console websocket (reference §3.4): a 10-minute HS256 JWT. The route's guard
   * has already applied the websocket state rule (root admins may watch an installing server) and
   * checked `websocket.connect`.
   */
  async websocket(access: PermittedServerAccess) {
    const { node } = access;
    const token = await signDaemonToken(
      {
        scope: 'websocket',
        seconds: SOCKET_TOKEN_SECONDS,
        key: this.daemonClient.token(node),
        jti: userServerTokenId(access.user.id, access.server.uuid),
      },
      {
        iss: this.config.appUrl,
        aud: [nodeUrl(node)],
        server_uuid: access.server.uuid,
        permissions: socketPermissions(access),
        user_uuid: access.user.uuid,
        user_id: access.user.id,
        unique_id: randomAlnum(16),
      },
    );
    const socket = `${nodeUrl(node).replace(/^http/u, 'ws')}/api/servers/${access.server.uuid}/ws`;
    return { token, socket };
  }

  async resources({ node, server }: PermittedServerAccess) {
    let state;
    try {
      state = await this.states.get(node, server.uuid);
    } catch (e) {
      // Every daemon failure of this endpoint answers 504, as the reference does.
      if (e instanceof HttpError) throw new HttpError(504, e.code, e.detail);
      throw e;
    }
    const u = state.utilization;
    return {
      current_state: state.state,
      is_suspended: state.is_suspended,
      resources: {
        memory_bytes: u.memory_bytes,
        cpu_absolute: u.cpu_absolute,
        disk_bytes: u.disk_bytes,
        network_rx_bytes: u.network.rx_bytes,
        network_tx_bytes: u.network.tx_bytes,
        uptime: u.uptime,
      },
    } satisfies ClientServerResources;
  }

  async command(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const { command } = check<{ command: string }>(body, { command: 'required|string|min:1' });
    try {
      await this.daemonClient.commands(access.node, access.server.uuid, [command]);
    } catch (e) {
      // The daemon answers 502 for a server that is not running (Wings protocol): clients of the
      // original expect this message, not the generic daemon error (reference, POST …/command).
      if (e instanceof HttpError && e.status === 502 && e.code === 'DaemonConnectionException') {
        throw new HttpError(502, 'HttpException', 'Server must be online in order to send commands.');
      }
      throw e;
    }
    await this.activity.log('server:console.command', actor, [{ type: 'server', id: access.server.id }], {
      command,
    });
  }

  /** The route's guard has checked the permission {@link powerPermission} named for the signal. */
  async power(access: PermittedServerAccess, body: unknown, actor: ActivityActor) {
    const { signal } = check<{ signal: PowerAction }>(body, {
      signal: 'required|string|in:start,stop,restart,kill',
    });
    await this.daemonClient.power(access.node, access.server.uuid, signal);
    // The dashboard should show the server starting or stopping now, not a second later.
    this.states.forget(access.node, access.server.uuid);
    await this.activity.log(`server:power.${signal}`, actor, [{ type: 'server', id: access.server.id }]);
  }
}

const POWER_PERMISSIONS: Record<string, string> = {
  start: 'control.start',
  stop: 'control.stop',
  kill: 'control.stop',
  restart: 'control.restart',
};

/**
 * The permission a power request needs, decided before the signal is validated (reference §3.3):
 * an unknown signal needs one no subuser holds, so subusers get 403 where the owner gets 422.
 */
export function powerPermission(body: unknown): string {
  const signal = (body as { signal?: unknown } | null)?.signal;
  return typeof signal === 'string' && Object.hasOwn(POWER_PERMISSIONS, signal)
    ? POWER_PERMISSIONS[signal]!
    : OWNER_ONLY;
}
