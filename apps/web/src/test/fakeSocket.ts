import { ServerSocket, type SocketLike } from '../features/server/socket.ts';

/**
 * A ServerSocket over an in-memory connection that is already open (and authenticated with
 * `token` when given): `sent` holds the frames the page sent, `receive` plays one from the daemon.
 */
export function openFakeSocket(token?: string) {
  const sent: string[] = [];
  const raw: SocketLike = {
    readyState: 0,
    onopen: null,
    onclose: null,
    onmessage: null,
    onerror: null,
    send: (d) => sent.push(d),
    close: () => undefined,
  };
  const socket = new ServerSocket(
    'ws://x',
    () => raw,
    () => undefined,
  );
  if (token) socket.setToken(token);
  socket.connect();
  (raw as { readyState: number }).readyState = 1;
  raw.onopen?.call(raw, {});
  const receive = (event: string, ...args: string[]) =>
    raw.onmessage?.call(raw, { data: JSON.stringify({ event, args }) });
  return { socket, sent, receive };
}
