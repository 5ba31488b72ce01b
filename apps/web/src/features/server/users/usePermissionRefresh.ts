import { useEffect } from 'react';
import { useServerStore } from '../store.ts';

/** What the daemon says once the panel has revoked the tokens of a user whose access changed. */
const REVOKED = 'created too far in past (denylist)';

/**
 * A change of a subuser's permissions takes effect at once (issue 12): the panel has the daemon
 * deny the user's tokens, the socket answers the next event with a `jwt error`, and while the
 * connection fetches a new token this fetches the server again, so its permissions (the console's
 * command input, the tabs) follow without a reload.
 */
export function usePermissionRefresh(reloadServer: () => void): void {
  const socket = useServerStore((s) => s.socket);
  useEffect(() => {
    if (!socket) return;
    return socket.on('jwt error', (message = '') => {
      if (message.includes(REVOKED)) reloadServer();
    });
  }, [socket, reloadServer]);
}
