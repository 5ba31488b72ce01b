import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { DaemonConfig } from '../config/config.ts';
import type { ServerManager } from '../servers/manager.ts';
import { WS_TOO_MANY_CONNECTIONS } from '@talon/shared';
import { WsConnection, type ConnectionDeps } from './connection.ts';
import { WS_LIMITS } from '@talon/shared/wings/ws-limits';
import type { OpenSockets } from './open-sockets.ts';

const PATH = /^\/api\/servers\/([^/]+)\/ws\/?$/;

function refuse(socket: Duplex, status: number, text: string, error: string): void {
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nX-Request-Id: ${randomUUID()}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The peer's address as the panel's activity log takes it: `::ffff:1.2.3.4` is `1.2.3.4`. */
function clientIp(req: IncomingMessage): string | null {
  const address = req.socket.remoteAddress;
  if (!address) return null;
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/** Origin rule: the panel URL, an `allowed_origins` entry, or anything when `*` is listed. */
export function originAllowed(origin: string | undefined, config: DaemonConfig): boolean {
  if (config.allowed_origins.includes('*')) return true;
  if (!origin) return false;
  const panel = config.remote.replace(/\/+$/, '');
  return origin === panel || config.allowed_origins.includes(origin);
}

/**
 * Handles `GET /api/servers/:server/ws` upgrades on the HTTP server: unknown server → 404, foreign
 * Origin → 403, a server with 30 authenticated sockets open → 400 (a full server's oldest
 * unauthenticated socket is displaced instead, open-sockets.ts); authentication happens afterwards
 * inside the socket (`auth` event), within WS_AUTH_DEADLINE_MS.
 */
export function attachWebsocket(
  httpServer: {
    on(event: 'upgrade', fn: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
  },
  manager: ServerManager,
  deps: ConnectionDeps,
  open: OpenSockets,
): WebSocketServer {
  // A larger frame closes the socket with 1009 before it is parsed.
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_LIMITS.maxFrameBytes });
  httpServer.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://daemon');
    const m = PATH.exec(url.pathname);
    if (!m)
      return refuse(socket, 404, 'Not Found', 'The requested resource does not exist on this instance.');
    const server = manager.get(decodeURIComponent(m[1]!));
    if (!server)
      return refuse(socket, 404, 'Not Found', 'The requested resource does not exist on this instance.');
    if (!originAllowed(req.headers.origin, deps.config)) {
      return refuse(socket, 403, 'Forbidden', 'The origin of this request is not allowed.');
    }
    let connection: WsConnection | null = null;
    // Displaced before its upgrade completed, a connection has no websocket to close yet.
    const place = open.reserve(server.uuid, () => (connection ? connection.displace() : socket.destroy()));
    if (!place) return refuse(socket, 400, 'Bad Request', WS_TOO_MANY_CONNECTIONS);
    // The connection's end gives the place back, whether or not the upgrade completed.
    socket.once('close', () => place.release());
    wss.handleUpgrade(req, socket, head, (ws) => {
      connection = new WsConnection(ws, server, deps, clientIp(req));
      place.attach(connection);
    });
  });
  return wss;
}
