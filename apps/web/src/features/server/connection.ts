import { useEffect } from 'react';
import { getWebsocketCredentials } from '../../api/servers.ts';
import { ServerSocket, SOCKET_CLOSE, SOCKET_ERROR, SOCKET_OPEN } from './socket.ts';
import { useServerStore } from './store.ts';

/** Shown for a jwt error that a new token cannot fix (spec 001 §4). */
export const JWT_FATAL_TEXT =
  'There was an error validating the credentials provided for the websocket. Please refresh the page.';

/** The two jwt error texts after which a fresh token is fetched. */
export function isRefreshableJwtError(message: string): boolean {
  return message.includes('exp claim is invalid') || message.includes('created too far in past (denylist)');
}

/**
 * Wires a ServerSocket to the server store: opens it for the server, keeps its token fresh, and
 * turns daemon events into store changes. The socket closes when the server is left.
 */
export function attachSocketHandlers(
  socket: ServerSocket,
  refreshToken: () => Promise<string>,
  reloadServer: () => void,
): void {
  const store = useServerStore.getState;
  const refresh = () => {
    refreshToken().then(
      (token) => socket.setToken(token, true),
      () => store().setConnection({ socketError: true }),
    );
  };
  socket.on(SOCKET_OPEN, () => store().setConnection({ socketError: false }));
  socket.on(SOCKET_CLOSE, () => store().setConnection({ connected: false, socketError: true }));
  socket.on(SOCKET_ERROR, () => store().setConnection({ connected: false, socketError: true }));
  socket.on('auth success', () => {
    store().setConnection({ connected: true, socketError: false, socketFatal: null });
    socket.send('send stats');
  });
  socket.on('status', (state) => {
    if (state !== undefined) store().setPowerState(state);
  });
  socket.on('stats', (json) => {
    try {
      const s = JSON.parse(json ?? '') as {
        memory_bytes?: number;
        memory_limit_bytes?: number;
        cpu_absolute?: number;
        disk_bytes?: number;
        network?: { rx_bytes?: number; tx_bytes?: number };
        uptime?: number;
        state?: string;
      };
      store().setStats({
        memoryBytes: s.memory_bytes ?? 0,
        memoryLimitBytes: s.memory_limit_bytes ?? 0,
        cpuAbsolute: s.cpu_absolute ?? 0,
        diskBytes: s.disk_bytes ?? 0,
        rxBytes: s.network?.rx_bytes ?? 0,
        txBytes: s.network?.tx_bytes ?? 0,
        uptime: s.uptime ?? 0,
      });
      if (s.state) store().setPowerState(s.state);
    } catch (error) {
      console.warn('Unparseable stats', error);
    }
  });
  socket.on('token expiring', refresh);
  socket.on('token expired', refresh);
  socket.on('jwt error', (message = '') => {
    if (isRefreshableJwtError(message)) refresh();
    else store().setConnection({ socketFatal: JWT_FATAL_TEXT });
  });
  socket.on('transfer status', (status) => {
    if (status === 'starting') store().patchServer({ isTransferring: true });
    else if (status === 'failure') store().patchServer({ isTransferring: false });
    else if (status === 'success') reloadServer();
    // Any other transfer status: the daemon side changed under us, start the connection afresh.
    else socket.reconnect();
  });
  socket.on('install started', () => store().patchServer({ status: 'installing' }));
  socket.on('install completed', reloadServer);
  socket.on('backup restore completed', () => store().patchServer({ status: null }));
}

/** Opens the live connection while a server is shown; closes it when leaving (spec 001 §3). */
export function useServerConnection(serverId: string | undefined, reloadServer: () => void): void {
  useEffect(() => {
    if (!serverId) return;
    let cancelled = false;
    let socket: ServerSocket | null = null;
    const store = useServerStore.getState();
    getWebsocketCredentials(serverId).then(
      (credentials) => {
        if (cancelled) return;
        socket = new ServerSocket(credentials.socket);
        socket.setToken(credentials.token);
        attachSocketHandlers(
          socket,
          () => getWebsocketCredentials(serverId).then((c) => c.token),
          reloadServer,
        );
        store.setSocket(socket);
        socket.connect();
      },
      () => {
        if (!cancelled) store.setConnection({ socketError: true });
      },
    );
    return () => {
      cancelled = true;
      socket?.close();
      useServerStore.getState().setSocket(null);
      useServerStore.getState().setConnection({ connected: false, socketError: false });
    };
    // Only a different server reopens the socket; a new reloadServer closure must not.
  }, [serverId]);
}
