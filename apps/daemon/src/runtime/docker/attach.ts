import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';

/** The connection fields docker-modem keeps (not all are in its type declarations). */
interface ModemConnection {
  socketPath?: string;
  host?: string;
  port?: number | string;
  protocol?: 'http' | 'https' | 'ssh';
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
}

/**
 * Attach to a container's stdin, stdout and stderr on one hijacked connection (`Upgrade: tcp`).
 *
 * dockerode's `container.attach()` sends its options twice: in the query string, where the Engine
 * API reads them, and again as a JSON request body. Docker ignores that body; Podman's compatible
 * API treats everything after the headers as the container's stdin, so the game would read
 * `{"stream":true,…}` as its first console command. This request carries the options in the query
 * string only and has no body at all; everything written afterwards is the game's input.
 */
export function attachStdio(docker: Dockerode, containerId: string): Promise<Duplex> {
  const modem = docker.modem as unknown as ModemConnection;
  const query = 'stream=1&stdin=1&stdout=1&stderr=1';
  const options: http.RequestOptions = {
    method: 'POST',
    path: `/containers/${encodeURIComponent(containerId)}/attach?${query}`,
    headers: { Connection: 'Upgrade', Upgrade: 'tcp', 'Content-Length': '0' },
  };
  if (modem.socketPath) options.socketPath = modem.socketPath;
  else {
    options.host = modem.host;
    options.port = modem.port;
  }
  const secure = !modem.socketPath && modem.protocol === 'https';
  const req = secure
    ? https.request({ ...options, ca: modem.ca, cert: modem.cert, key: modem.key })
    : http.request(options);
  return new Promise((resolve, reject) => {
    req.once('upgrade', (_res, socket, head) => {
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('response', (res) => {
      // Old engines answer 200 and stream on the same connection instead of switching protocols.
      if (res.statusCode === 200) return resolve(res.socket);
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`attach failed (HTTP ${res.statusCode}): ${text.trim()}`), {
            statusCode: res.statusCode,
          }),
        ),
      );
    });
    req.once('error', reject);
    req.end();
  });
}
