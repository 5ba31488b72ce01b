import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import {
  JWT_ERRORS,
  POWER_ACTIONS,
  WS_INBOUND,
  WS_OUTBOUND,
  WS_THROTTLED_GLOBAL,
  tokenHasPermission,
  type PowerAction,
  type ServerState,
  type ServerStats,
  type WebsocketClaims,
  type WsFrame,
} from '@talon/shared';
import type { DaemonConfig } from '../config/config.ts';
import { daemonLine } from '../servers/console.ts';
import { LOCK_BUSY, ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';
import type { ActivityInput } from '../panel/activity-batch.ts';
import type { Denylist } from './denylist.ts';
import { ConsolePacer } from './console-pacer.ts';
import { JwtError, verifyWebsocketToken } from './jwt.ts';
import { MessageLimiter } from './limits.ts';
import type { OpenSocket } from './open-sockets.ts';
import { installReplay } from '../servers/install-log.ts';

export interface ConnectionDeps {
  config: DaemonConfig;
  denylist: Denylist;
  log: Logger;
  /**
   * Where power actions and console commands sent over sockets are recorded for the panel's
   * activity log (reference §8.14: the daemon logs those of the websocket only; the panel logs
   * the ones of its own HTTP API, so none is logged twice).
   */
  activity: { record(input: ActivityInput): void };
  /** Milliseconds a socket has to authenticate before it is closed (default WS_AUTH_DEADLINE_MS). */
  authDeadlineMs?: number;
}

/**
 * A socket must present an accepted token within 10 s of its upgrade; until then it holds one of
 * its server's 30 places for nothing (see open-sockets.ts).
 */
export const WS_AUTH_DEADLINE_MS = 10_000;
/** Policy violation: the close code of sockets ended for not authenticating. */
const CLOSE_UNAUTHENTICATED = 1008;

const POWER_PERMISSION: Record<PowerAction, string> = {
  start: 'control.start',
  stop: 'control.stop',
  restart: 'control.restart',
  kill: 'control.stop',
};
const EXPIRING_WINDOW_S = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const noop = (): void => undefined;

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

let lastLine: string | null = null;
let lastFrame = '';

/**
 * The frame of one console line. The server hands the same line to all its sockets one after the
 * other, so remembering the last one serializes each line once instead of once per browser.
 */
function consoleFrame(line: string): string {
  if (line !== lastLine) {
    lastLine = line;
    lastFrame = JSON.stringify({ event: WS_OUTBOUND.consoleOutput, args: [line] });
  }
  return lastFrame;
}

/**
 * One browser's console socket for one server (Wings protocol §3). Nothing but `auth` works until a
 * token is accepted; every later event, inbound and outbound, re-checks the token, so expiry and
 * revocation take effect on an open socket.
 */
export class WsConnection implements OpenSocket {
  private claims: WebsocketClaims | null = null;
  private readonly limits = new MessageLimiter();
  private subscribed = false;
  private timers: NodeJS.Timeout[] = [];
  private lastJwtError = '';
  private readonly pacer: ConsolePacer;
  /** The current token passed every check until then, at that denylist version. */
  private goodUntilMs = 0;
  private goodAtVersion = -1;
  private readonly unsubscribe: (() => void)[] = [];
  /** Settles when the last `auth` frame received has been handled. */
  private afterAuth: Promise<void> = Promise.resolve();
  private authDeadline: NodeJS.Timeout | null;

  constructor(
    private readonly socket: WebSocket,
    private readonly server: Server,
    private readonly deps: ConnectionDeps,
    /** The browser's address (port and IPv4-mapping stripped), for the activity log. */
    private readonly ip: string | null = null,
  ) {
    socket.on('message', (data, isBinary) => {
      // Every frame counts against the socket's rate, before anything is done with it.
      if (!this.limits.frame()) return this.send(WS_OUTBOUND.throttled, [WS_THROTTLED_GLOBAL]);
      if (isBinary) return;
      let frame: WsFrame;
      try {
        frame = JSON.parse(rawText(data)) as WsFrame;
      } catch {
        return; // not JSON: ignored, the socket stays open
      }
      if (!frame || typeof frame.event !== 'string') return;
      if (!this.limits.event(frame.event)) return this.send(WS_OUTBOUND.throttled, [frame.event]);
      const args = Array.isArray(frame.args)
        ? frame.args.map((a) => (typeof a === 'string' ? a : a == null ? '' : String(a)))
        : [];
      // Frames after an `auth` wait for its (asynchronous) verification, so they are judged by it.
      const handled = this.afterAuth.then(() => this.handle(frame.event, args));
      if (frame.event === WS_INBOUND.auth) this.afterAuth = handled.then(noop, noop);
      void handled.catch((err: Error) => deps.log.error({ err }, 'websocket handler failed'));
    });
    this.pacer = new ConsolePacer({
      socket,
      send: (line) => this.sendFrame(consoleFrame(line)),
      recent: (count) => server.history.last(count),
      notice: (skipped) =>
        daemonLine(
          deps.config.app_name,
          `${skipped} console lines were skipped because this connection could not keep up.`,
        ),
      usable: () => this.tokenProblem() === null,
    });
    socket.on('close', () => this.dispose());
    socket.on('error', () => this.dispose());
    this.authDeadline = setTimeout(
      () => this.endUnauthenticated('authentication timeout'),
      deps.authDeadlineMs ?? WS_AUTH_DEADLINE_MS,
    );
  }

  /** Close the socket unless it has authenticated meanwhile. */
  private endUnauthenticated(reason: string): void {
    if (this.claims) return;
    this.socket.close(CLOSE_UNAUTHENTICATED, reason);
    this.dispose();
  }

  /** A newer upgrade takes this unauthenticated socket's place on a full server (open-sockets.ts). */
  displace(): void {
    this.endUnauthenticated('replaced: not authenticated');
  }

  private send(event: string, args?: string[]): void {
    this.sendFrame(JSON.stringify(args && args.length ? { event, args } : { event }));
  }

  private sendFrame(frame: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(frame);
  }

  /** Why the current token may not be used right now, or null. */
  private tokenProblem(): string | null {
    // Checked for every line to every browser: a token already found good stays good until it
    // expires or a new denial arrives, so only those re-run the full check.
    if (this.goodUntilMs > Date.now() && this.goodAtVersion === this.deps.denylist.version) return null;
    const problem = this.checkToken();
    if (problem === null && this.claims) {
      this.goodUntilMs = (this.claims.exp + 1) * 1000;
      this.goodAtVersion = this.deps.denylist.version;
    }
    return problem;
  }

  private checkToken(): string | null {
    const c = this.claims;
    if (!c) return JWT_ERRORS.missing;
    const now = Math.floor(Date.now() / 1000);
    if (now > c.exp) return JWT_ERRORS.expired;
    // The panel sets nbf five minutes in the past; allow a minute of clock skew the other way.
    if (c.nbf !== undefined && c.nbf > now + 60) return 'jwt: nbf claim is invalid';
    const aud = this.deps.config.api.jwt_audience;
    if (aud.length) {
      const given = Array.isArray(c.aud) ? c.aud : c.aud === undefined ? [] : [c.aud];
      if (!given.some((a) => aud.includes(a))) return 'jwt: aud claim is invalid';
    }
    if (this.deps.denylist.isDenied(c)) return JWT_ERRORS.denylisted;
    if (!tokenHasPermission(c.permissions, 'websocket.connect')) return JWT_ERRORS.noConnect;
    if (c.server_uuid !== this.server.uuid) return JWT_ERRORS.serverMismatch;
    return null;
  }

  private can(permission: string): boolean {
    return this.claims !== null && tokenHasPermission(this.claims.permissions, permission);
  }

  private jwtError(message: string): void {
    this.send(WS_OUTBOUND.jwtError, [message]);
  }

  /** Handler failures: the real text only for tokens with `admin.websocket.errors`. */
  private daemonError(err: unknown): void {
    const id = randomUUID();
    const real = err instanceof Error ? err.message : String(err);
    this.deps.log.warn({ server: this.server.uuid, errorId: id, err: real }, 'websocket event failed');
    const shown =
      real === LOCK_BUSY || this.can('admin.websocket.errors')
        ? real
        : 'an unexpected error was encountered while handling this request';
    this.send(WS_OUTBOUND.daemonError, [`Error Event [${id}]: ${shown}`]);
  }

  private async handle(event: string, args: string[]): Promise<void> {
    if (event === WS_INBOUND.auth) return this.auth(args.join(''));
    const problem = this.tokenProblem();
    if (problem) return this.jwtError(problem);
    switch (event) {
      case WS_INBOUND.setState: {
        const action = args[0] ?? '';
        if (!(POWER_ACTIONS as readonly string[]).includes(action)) {
          return this.daemonError(new ServerError('attempting to handle unknown power action'));
        }
        if (!this.can(POWER_PERMISSION[action as PowerAction])) return; // silently ignored, as Wings does
        // Whose action it was is read before the await: the token may be refreshed meanwhile.
        const user = this.actingUser();
        try {
          await this.server.power(action as PowerAction, 0);
        } catch (err) {
          this.daemonError(err);
          return; // refused or failed: nothing happened to record
        }
        this.record(`server:power.${action}`, {}, user);
        return;
      }
      case WS_INBOUND.sendCommand: {
        if (!this.can('control.console')) return;
        // An offline server has no console to take the line: nothing to record either.
        if (this.server.state === 'offline') return;
        const command = args.join('');
        this.server.sendCommand(command);
        this.record('server:console.command', { command }, this.actingUser());
        return;
      }
      case WS_INBOUND.sendLogs: {
        // Unlike Wings (which reads Docker's log of a running container only), the history ring
        // outlives the process: a stopped server's last output stays readable after a page reload.
        // It is cleared when the server starts again.
        for (const line of this.server.history.last(this.deps.config.system.websocket_log_count)) {
          this.send(WS_OUTBOUND.consoleOutput, [line]);
        }
        return;
      }
      case WS_INBOUND.sendStats:
        this.send(WS_OUTBOUND.stats, [JSON.stringify(this.server.stats())]);
        return;
      default:
        return; // unknown events are ignored
    }
  }

  private async auth(token: string): Promise<void> {
    let claims: WebsocketClaims;
    try {
      claims = await verifyWebsocketToken(token, this.deps.config.token);
    } catch (err) {
      return this.jwtError(err instanceof JwtError ? err.message : 'jwt: malformed token');
    }
    const previous = this.claims;
    this.claims = claims;
    this.goodUntilMs = 0; // a new token is checked in full
    const problem = this.tokenProblem();
    if (problem) {
      this.claims = previous; // a bad refresh does not cancel a still-valid token
      this.goodUntilMs = 0;
      return this.jwtError(problem);
    }
    this.lastJwtError = '';
    this.clearAuthDeadline();
    this.scheduleExpiry(claims.exp);
    this.send(WS_OUTBOUND.authSuccess);
    if (this.subscribed) return;
    this.subscribed = true;
    this.subscribe();
    this.send(WS_OUTBOUND.status, [this.server.state]);
    // An admin who opens the console mid-install or after a failed one sees the output so far
    // (our extension): the lines after this point come from the bus subscribed just above.
    if (this.can('admin.websocket.install')) {
      for (const line of installReplay(this.server)) this.send(WS_OUTBOUND.installOutput, [line]);
    }
    if (this.server.state === 'offline' && !this.server.installing) {
      await this.server.disk.refresh();
      this.send(WS_OUTBOUND.stats, [JSON.stringify(this.server.stats())]);
    }
  }

  /** `token expiring` once inside the last minute, `token expired` at expiry. */
  private scheduleExpiry(exp: number): void {
    for (const t of this.timers) clearTimeout(t);
    const msLeft = exp * 1000 - Date.now();
    this.timers = [
      setTimeout(() => this.send(WS_OUTBOUND.tokenExpiring), Math.max(0, msLeft - EXPIRING_WINDOW_S * 1000)),
      // +1 s: `exp` is valid through its own second.
      setTimeout(() => this.send(WS_OUTBOUND.tokenExpired), Math.max(0, msLeft + 1000)),
    ];
  }

  /** Deliver a bus event if the token still allows it; otherwise say why, once per reason. */
  private deliver(event: string, args: string[], permission?: string): void {
    if (!this.tokenUsable()) return;
    if (permission && !this.can(permission)) return;
    this.send(event, args);
  }

  /** True when the token may be used now; otherwise says why (once per reason) and is false. */
  private tokenUsable(): boolean {
    const problem = this.tokenProblem();
    if (!problem) return true;
    if (problem !== this.lastJwtError) this.jwtError(problem);
    this.lastJwtError = problem;
    return false;
  }

  private subscribe(): void {
    const bus = this.server.bus;
    const on = <K extends Parameters<typeof bus.on>[0]>(name: K, fn: (...a: never[]) => void): void => {
      bus.on(name, fn as never);
      this.unsubscribe.push(() => bus.off(name, fn as never));
    };
    on('status', (s: ServerState) => this.deliver(WS_OUTBOUND.status, [s]));
    on('stats', (s: ServerStats) => this.deliver(WS_OUTBOUND.stats, [JSON.stringify(s)]));
    on('console', (l: string) => {
      if (this.tokenUsable()) this.pacer.line(l);
    });
    on('install output', (l: string) =>
      this.deliver(WS_OUTBOUND.installOutput, [l], 'admin.websocket.install'),
    );
    on('install started', () => this.deliver(WS_OUTBOUND.installStarted, ['']));
    on('install completed', () => this.deliver(WS_OUTBOUND.installCompleted, ['']));
    on('daemon message', (m: string) => this.deliver(WS_OUTBOUND.daemonMessage, [m]));
    on('backup completed', (j: string) => this.deliver(WS_OUTBOUND.backupCompleted, [j]));
    on('backup progress', (j: string) => this.deliver(WS_OUTBOUND.backupProgress, [j]));
    on('backup restore completed', () => this.deliver(WS_OUTBOUND.backupRestoreCompleted, ['']));
    on('deleted', () => {
      this.deliver(WS_OUTBOUND.deleted, ['null']);
      this.socket.close(1001, 'server deleted');
    });
  }

  /** The token's user when it is a uuid (the panel refuses a batch naming anything else). */
  private actingUser(): string | null {
    const uuid = this.claims?.user_uuid;
    return uuid && UUID.test(uuid) ? uuid : null;
  }

  private record(event: string, metadata: Record<string, unknown>, user: string | null): void {
    this.deps.activity.record({ user, server: this.server.uuid, event, metadata, ip: this.ip });
  }

  get user(): string | undefined {
    return this.claims?.user_uuid;
  }

  get authenticated(): boolean {
    return this.claims !== null;
  }

  private clearAuthDeadline(): void {
    if (this.authDeadline) clearTimeout(this.authDeadline);
    this.authDeadline = null;
  }

  /**
   * The user's access was withdrawn (`POST /api/deauthorize-user`; the denylist already refuses the
   * token): say so as a denied token, then close with 1008 (policy violation) — a client may fetch a
   * new token, which the panel gives only if access remains.
   */
  deauthorize(): void {
    this.jwtError(JWT_ERRORS.denylisted);
    this.socket.close(1008, 'access withdrawn');
    this.dispose();
  }

  dispose(): void {
    this.clearAuthDeadline();
    this.pacer.dispose();
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    for (const u of this.unsubscribe.splice(0)) u();
  }
}
