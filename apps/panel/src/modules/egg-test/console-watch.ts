import { ADMIN_SOCKET_PERMISSIONS, WILDCARD, WS_INBOUND, WS_OUTBOUND, type WsFrame } from '@talon/shared';
import WebSocket from 'ws';
import type { Config } from '../../config/config.ts';
import { nodeUrl, type DaemonClient } from '../../daemon-client/daemon-client.ts';
import type { Node, Server, User } from '../../db/types.ts';
import { randomAlnum } from '../../lib/crypto.ts';
import { signDaemonToken } from '../../lib/jwt.ts';
import { userServerTokenId } from '../servers/token-id.ts';

const TOKEN_SECONDS = 10 * 60;
/** How long the daemon may take to accept the socket and its credentials. */
const CONNECT_MS = 15_000;

/** A state the daemon reported (`offline`, `starting`, `running`, `stopping`). */
export type ServerState = string;

/**
 * The server's console websocket as a root admin's browser opens it (reference §3.4): the egg test
 * reads the server's states and every console, install and daemon line from it, so it works with
 * whatever runtime the node uses.
 */
export class ConsoleWatch {
  /** The state the daemon reported last; null before the first `status` frame. */
  state: ServerState | null = null;
  /** Every state reported since `open`, in order (the start step looks for a stop before `running`). */
  readonly states: ServerState[] = [];
  /** Console lines since the last `status` frame (the done line arrives just after `running`). */
  linesSinceStatus = 0;
  /** Why the socket ended, once it has. */
  closed: string | null = null;
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly socket: WebSocket,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Opens and authenticates the socket of `server`; `onLine` gets each line it prints. */
  static async open(
    deps: { config: Config; daemon: DaemonClient },
    node: Node,
    server: Server,
    user: User,
    onLine: (line: string) => void,
  ): Promise<ConsoleWatch> {
    const sign = () =>
      signDaemonToken(
        {
          scope: 'websocket',
          seconds: TOKEN_SECONDS,
          key: deps.daemon.token(node),
          jti: userServerTokenId(user.id, server.uuid),
        },
        {
          iss: deps.config.appUrl,
          aud: [nodeUrl(node)],
          server_uuid: server.uuid,
          permissions: [WILDCARD, ...ADMIN_SOCKET_PERMISSIONS],
          user_uuid: user.uuid,
          user_id: user.id,
          unique_id: randomAlnum(16),
        },
      );
    const url = `${nodeUrl(node).replace(/^http/u, 'ws')}/api/servers/${server.uuid}/ws`;
    // The daemon accepts consoles from the panel's origin only.
    const socket = new WebSocket(url, { origin: new URL(deps.config.appUrl).origin });
    const watch = new ConsoleWatch(socket, onLine);
    socket.on('message', (data: Buffer) => {
      let frame: WsFrame;
      try {
        frame = JSON.parse(data.toString('utf8')) as WsFrame;
      } catch {
        return;
      }
      watch.receive(frame, () => void sign().then((token) => watch.send(WS_INBOUND.auth, token)));
    });
    socket.on('close', (code, reason) =>
      watch.end(`closed (${code}${reason.length ? `: ${reason.toString('utf8')}` : ''})`),
    );
    socket.on('error', (e) => watch.end(e.message));
    const authenticated = watch.until(() => watch.state !== null, CONNECT_MS);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    watch.send(WS_INBOUND.auth, await sign());
    if (!(await authenticated)) {
      watch.close();
      throw new Error(`the console did not accept the panel's credentials: ${watch.closed ?? 'no answer'}`);
    }
    return watch;
  }

  private receive(frame: WsFrame, renew: () => void): void {
    const first = frame.args?.[0] ?? '';
    switch (frame.event) {
      case WS_OUTBOUND.status:
        this.state = first;
        this.states.push(first);
        this.linesSinceStatus = 0;
        break;
      case WS_OUTBOUND.consoleOutput:
      case WS_OUTBOUND.installOutput:
        this.linesSinceStatus += 1;
        this.onLine(first);
        break;
      case WS_OUTBOUND.daemonMessage:
      case WS_OUTBOUND.daemonError:
        this.onLine(`[daemon] ${first}`);
        break;
      case WS_OUTBOUND.jwtError:
        this.end(`the console refused the credentials: ${first}`);
        break;
      case WS_OUTBOUND.tokenExpiring:
        renew();
        break;
      default:
        break;
    }
    this.notify();
  }

  private send(event: string, ...args: string[]): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ event, args }));
  }

  private end(why: string): void {
    this.closed ??= why;
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  /**
   * Resolves true as soon as `done()` holds (checked now and after every frame), false after `ms`
   * or when the socket has closed without it.
   */
  until(done: () => boolean, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (done()) finish(true);
        else if (this.closed !== null) finish(false);
      };
      const timer = setTimeout(() => finish(false), ms);
      this.listeners.add(check);
      check();
    });
  }

  /** Ends the socket; waits still pending end with `why` as the reason. */
  close(why = 'closed by the panel'): void {
    this.end(why);
    this.listeners.clear();
    this.socket.close();
  }
}
