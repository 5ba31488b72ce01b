import { WS_LIMITS } from '@talon/shared/wings/ws-limits';

/** What the registry needs of a console socket. */
export interface OpenSocket {
  /** The `user_uuid` of the token the socket is authenticated with, if any. */
  readonly user: string | undefined;
  /** A token has been accepted on this socket. */
  readonly authenticated: boolean;
  /** End the socket because its user's access was withdrawn. */
  deauthorize(): void;
}

interface Place {
  socket: OpenSocket | null;
  /** End the connection to free its place for a newer one. */
  displace(): void;
}

/**
 * The node's open console sockets, by server: the per-server cap (CVE-2025-69199) and closing one
 * user's sockets (`POST /api/deauthorize-user`). A place is taken before the upgrade completes and
 * given back when the underlying connection closes, so parallel upgrades cannot slip past the cap.
 *
 * Sockets that have not authenticated yet hold their place only until someone needs it: when a
 * server is full, a new upgrade displaces its oldest unauthenticated socket, so connecting without
 * a token cannot lock users out of a console. Only 30 authenticated sockets make the server full.
 */
export class OpenSockets {
  /** places in the order they were taken, oldest first */
  private readonly byServer = new Map<string, Set<Place>>();

  constructor(private readonly perServer: number = WS_LIMITS.connectionsPerServer) {}

  /**
   * Take a place on `server`, displacing its oldest unauthenticated socket when it is full, or null
   * when every place is authenticated. `displace` ends this connection should a newer one need its
   * place; `attach` names the socket once upgraded; `release` gives the place back (safe to call
   * more than once).
   */
  reserve(
    server: string,
    displace: () => void,
  ): { attach(socket: OpenSocket): void; release(): void } | null {
    const places = this.byServer.get(server) ?? new Set<Place>();
    if (places.size >= this.perServer) {
      const oldest = [...places].find((p) => !p.socket?.authenticated);
      if (!oldest) return null;
      // Its place is free now; its connection closes on its own time.
      places.delete(oldest);
      oldest.displace();
    }
    const place: Place = { socket: null, displace };
    places.add(place);
    this.byServer.set(server, places);
    return {
      attach: (socket) => {
        place.socket = socket;
      },
      release: () => {
        places.delete(place);
        if (places.size === 0 && this.byServer.get(server) === places) this.byServer.delete(server);
      },
    };
  }

  /** End `user`'s sockets on `servers` (every server when none are named); returns how many. */
  deauthorize(user: string, servers?: readonly string[]): number {
    let ended = 0;
    for (const [server, places] of this.byServer) {
      if (servers && !servers.includes(server)) continue;
      for (const { socket } of places) {
        if (socket?.user !== user) continue;
        socket.deauthorize();
        ended++;
      }
    }
    return ended;
  }
}
