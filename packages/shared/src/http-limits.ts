/**
 * The deepest JSON nesting the panel and the daemon accept in a request body. Real bodies (egg
 * exports included) stay far below it; thousands of levels only serve to exhaust the stack of
 * whatever walks the parsed value (input normalisation, validation, serialisation).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` nests arrays/objects deeper than `max`. One linear scan of the raw text, run
 * before `JSON.parse`, so a hostile body costs no more than reading it once. Brackets inside
 * strings do not count; the text need not be valid JSON (the parser judges that afterwards).
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Most bytes of request line and headers, for Node's `maxHeaderSize` (its default, written down so
 * neither a Node upgrade nor a command-line flag changes it unseen). Beyond it: 431.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The part of a socket a client-error answer needs (Node's `net.Socket`). */
export interface ClientSocket {
  readonly destroyed: boolean;
  readonly writable: boolean;
  write(data: string): unknown;
  destroy(err?: Error): unknown;
}

/**
 * A `clientError` handler (Fastify's `clientErrorHandler`) answering requests Node refused before
 * any route saw them (headers over `MAX_HEADER_BYTES`, a timeout, a malformed request) with the
 * app's own error body: `render(status, message)` gives the JSON document.
 */
export function clientErrorHandler(
  render: (status: number, message: string) => unknown,
): (err: Error & { code?: string }, socket: ClientSocket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive.']
          : [400, 'Bad Request', 'The request is not valid HTTP.'];
    // ASCII only (other characters as \u escapes), so its length is its byte count.
    const body = JSON.stringify(render(status, message)).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
