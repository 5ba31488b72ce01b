import { WS_LIMITS } from '@talon/shared/wings/ws-limits';

/** What the registry needs of a console socket. */
export interface OpenSocket {
  /** The `user_uuid` of the token the socket is authenticated with, if any. */
  readonly user: string | undefined;
  /** End the socket because its user's access was withdrawn. */
  deauthorize(): void;
}

/**
 * The node's open console sockets, by server: the per-server cap (CVE-2025-69199) and closing one
 * user's sockets (`POST /api/deauthorize-user`). A place is taken before the upgrade completes and
 * given back when the underlying connection closes, so parallel upgrades cannot slip past the cap.
 */
export class OpenSockets {
  private readonly byServer = new Map<string, Set<{ socket: OpenSocket | null }>>();

  constructor(private readonly perServer: number = WS_LIMITS.connectionsPerServer) {}

  /**
   * Take a place on `server`, or null when it is full. `attach` names the socket once upgraded;
   * `release` gives the place back (safe to call more than once).
   */
  reserve(server: string): { attach(socket: OpenSocket): void; release(): void } | null {
    const places = this.byServer.get(server) ?? new Set();
    if (places.size >= this.perServer) return null;
    const place: { socket: OpenSocket | null } = { socket: null };
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
