import { useEffect, useState } from 'react';
import { WS_OUTBOUND } from '@talon/shared/wings/events';
import type { ServerSocket } from './socket.ts';

/** Lines after which a Minecraft-style server waits for its EULA to be accepted. */
export const EULA_PROMPT = /you need to agree to the eula|failed to load eula\.txt/i;

/** Lines that say the server needs another Java version than the image provides. */
export const JAVA_MISMATCH =
  /unsupportedclassversionerror|compiled by a more recent version of the java runtime|unsupported java detected|requires running the server with java|java\.lang\.NoSuchMethodError: .*java\.nio/i;

/** True once a console line matching `pattern` arrived on `socket` (reset with the socket). */
export function useConsoleMatch(socket: ServerSocket | null, pattern: RegExp): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    setSeen(false);
    if (!socket) return;
    return socket.on(WS_OUTBOUND.consoleOutput, (line = '') => {
      if (pattern.test(line)) setSeen(true);
    });
  }, [socket, pattern]);
  return seen;
}
