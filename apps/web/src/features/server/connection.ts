import { useEffect } from 'react';
import type { ServerStats } from '@talon/shared/wings/daemon-api';
import { WS_INBOUND, WS_OUTBOUND } from '@talon/shared/wings/events';
import { HttpError, httpErrorToHuman } from '../../api/errors.ts';
import { getWebsocketCredentials } from '../../api/servers.ts';
import { ServerSocket, SOCKET_CLOSE, SOCKET_ERROR, SOCKET_OPEN } from './socket.ts';
import { useServerStore } from './store.ts';
import { throttledNotice } from './throttledNotice.ts';

/** Shown for a jwt error that a new token cannot fix (spec 001 §4). */
export const JWT_FATAL_TEXT =
  'There was an error validating the credentials provided for the websocket. Please refresh the page.';

/** The two jwt error texts after which a fresh token is fetched. */
export function isRefreshableJwtError(message: string): boolean {
  return message.includes('exp claim is invalid') || message.includes('created too far in past (denylist)');
}

/** What the socket handlers need from the page around them. */
export interface ConnectionActions {
  /** A fresh websocket token from the panel. */
  refreshToken: () => Promise<string>;
  /** Fetches the server again (install finished, transfer succeeded). */
  reloadServer: () => void;
  /** Drops this socket and connects again with new credentials (the server may be on another node). */
  restart: () => void;
}

/**
 * Wires a ServerSocket to the server store: keeps its token fresh and turns daemon events into
 * store changes. The socket closes when the server is left; the returned function then takes away
 * what these handlers show outside the store (the `throttled` notice).
 */
export function attachSocketHandlers(socket: ServerSocket, actions: ConnectionActions): () => void {
  const store = useServerStore.getState;
  const notice = throttledNotice();
  const refresh = () => {
    actions.refreshToken().then(
      (token) => {
        if (!socket.isClosed) socket.setToken(token, true);
      },
      // A refusal that arrives after the user left must not mark the next server's connection.
      () => {
        if (!socket.isClosed) store().setConnection({ socketError: true });
      },
    );
  };
  socket.on(SOCKET_OPEN, () => store().setConnection({ socketError: false }));
  socket.on(SOCKET_CLOSE, () => store().setConnection({ connected: false, socketError: true }));
  socket.on(SOCKET_ERROR, () => store().setConnection({ connected: false, socketError: true }));
  socket.on(WS_OUTBOUND.authSuccess, () => {
    store().setConnection({ connected: true, socketError: false, socketFatal: null });
    socket.send(WS_INBOUND.sendStats);
  });
  socket.on(WS_OUTBOUND.status, (state) => {
    if (state !== undefined) store().setPowerState(state);
  });
  socket.on(WS_OUTBOUND.stats, (json) => {
    try {
      // Not validated: a missing figure shows as 0 rather than dropping the whole update.
      const s = JSON.parse(json ?? '') as Partial<ServerStats>;
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
  socket.on(WS_OUTBOUND.tokenExpiring, refresh);
  socket.on(WS_OUTBOUND.tokenExpired, refresh);
  socket.on(WS_OUTBOUND.jwtError, (message = '') => {
    if (isRefreshableJwtError(message)) refresh();
    else store().setConnection({ socketFatal: JWT_FATAL_TEXT });
  });
  socket.on(WS_OUTBOUND.transferStatus, (status) => {
    if (status === 'starting') store().patchServer({ isTransferring: true });
    else if (status === 'success') actions.reloadServer();
    else {
      // Any other status (failure included): the daemon side changed under us, so the connection
      // starts afresh, with new credentials.
      if (status === 'failure') store().patchServer({ isTransferring: false });
      actions.restart();
    }
  });
  socket.on(WS_OUTBOUND.installStarted, () => store().patchServer({ status: 'installing' }));
  socket.on(WS_OUTBOUND.installCompleted, actions.reloadServer);
  socket.on(WS_OUTBOUND.backupRestoreCompleted, () => store().patchServer({ status: null }));
  socket.on(WS_OUTBOUND.throttled, notice.show);
  return notice.hide;
}

/** Shown instead of a console that can never connect: the user lacks websocket.connect. */
export const NO_SOCKET_PERMISSION_TEXT =
  'You do not have permission to use the live console of this server. Ask its owner for access.';

/** Waits between attempts to fetch the socket credentials: 5 s, growing by 2.5 s, at most 20 s. */
export function credentialsRetryDelay(attempt: number): number {
  return Math.min(5000 + attempt * 2500, 20_000);
}

/**
 * Opens the live connection while a server is shown; closes it when leaving (spec 001 §3). A user
 * without websocket.connect gets a clear text instead of a socket that never connects; failures to
 * fetch the credentials are retried unless the panel refused them outright (4xx).
 */
export function useServerConnection(
  serverId: string | undefined,
  allowed: boolean,
  reloadServer: () => void,
): void {
  useEffect(() => {
    if (!serverId) return;
    const store = useServerStore.getState();
    if (!allowed) {
      store.setConnection({ socketFatal: NO_SOCKET_PERMISSION_TEXT });
      return () => useServerStore.getState().setConnection({ socketFatal: null });
    }
    let cancelled = false;
    let socket: ServerSocket | null = null;
    let detach: () => void = () => undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      socket?.close();
      detach();
      socket = null;
      store.setSocket(null);
      store.setConnection({ connected: false });
      open(0);
    };
    const open = (attempt: number) => {
      getWebsocketCredentials(serverId).then(
        (credentials) => {
          if (cancelled) return;
          socket = new ServerSocket(credentials.socket);
          socket.setToken(credentials.token);
          detach = attachSocketHandlers(socket, {
            refreshToken: () => getWebsocketCredentials(serverId).then((c) => c.token),
            reloadServer,
            restart,
          });
          store.setSocket(socket);
          socket.connect();
        },
        (error: unknown) => {
          if (cancelled) return;
          const status = error instanceof HttpError ? error.status : null;
          if (status !== null && status >= 400 && status < 500) {
            store.setConnection({ socketFatal: httpErrorToHuman(error) });
            return;
          }
          store.setConnection({ socketError: true });
          retry = setTimeout(() => open(attempt + 1), credentialsRetryDelay(attempt));
        },
      );
    };
    open(0);
    return () => {
      cancelled = true;
      clearTimeout(retry);
      socket?.close();
      detach();
      useServerStore.getState().setSocket(null);
      useServerStore.getState().setConnection({ connected: false, socketError: false, socketFatal: null });
    };
    // Only a different server (or a change of permission) reopens the socket; a new reloadServer
    // closure must not.
  }, [serverId, allowed]);
}
